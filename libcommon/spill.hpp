// An anonymous temporary file holding records (raw bytes) until a tool can
// use them: memory stays bounded whatever a kernel's size. cta-sample
// replays a kernel's records once it knows which to keep; rd-cache once it
// has written the kernel's cache record; pipe-sim reads each CTA back when an
// SM launches it. Lives in $TMPDIR (default /tmp); removed when closed.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace sasskit {

class SpillFile {
 public:
  SpillFile();
  ~SpillFile();
  SpillFile(const SpillFile&) = delete;
  SpillFile& operator=(const SpillFile&) = delete;

  // Appends a record's bytes with a tag kept beside it; returns its index.
  size_t append(const std::string& bytes, int64_t tag = 0);
  size_t size() const { return entries_.size(); }
  int64_t tag(size_t index) const { return entries_[index].tag; }
  // Reads the records back in order: body(bytes, tag). Then empties the file.
  template <class F>
  void replay(F&& body);
  // Makes every appended record readable by read(); call before reading.
  void flush();
  // Record `index` (any order; safe from several threads at once once
  // flushed, while nothing is appended).
  void read(size_t index, std::string& bytes) const;

 private:
  void clear();

  std::FILE* file_ = nullptr;
  std::string path_;
  struct Entry {
    uint64_t offset;
    uint64_t length;
    int64_t tag;
  };
  std::vector<Entry> entries_;
  uint64_t end_ = 0;  // bytes appended
};

template <class F>
void SpillFile::replay(F&& body) {
  flush();
  std::string bytes;
  for (size_t i = 0; i < entries_.size(); ++i) {
    read(i, bytes);
    body(bytes, entries_[i].tag);
  }
  clear();
}

}  // namespace sasskit
