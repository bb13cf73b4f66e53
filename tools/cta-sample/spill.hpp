// An anonymous temporary file holding a kernel's records (raw bytes) until
// cta-sample knows which to re-emit: memory stays bounded whatever the
// kernel's size. Lives in $TMPDIR (default /tmp); removed when closed.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace sasskit::ctasample {

class SpillFile {
 public:
  SpillFile();
  ~SpillFile();
  SpillFile(const SpillFile&) = delete;
  SpillFile& operator=(const SpillFile&) = delete;

  // Appends a record's bytes with a tag kept beside it.
  void append(const std::string& bytes, int64_t tag);
  size_t size() const { return entries_.size(); }
  // Reads the records back in order: body(bytes, tag). Then empties the file.
  template <class F>
  void replay(F&& body);

 private:
  void read_back(size_t index, std::string& bytes);
  void clear();

  std::FILE* file_ = nullptr;
  std::string path_;
  struct Entry {
    uint64_t length;
    int64_t tag;
  };
  std::vector<Entry> entries_;
};

template <class F>
void SpillFile::replay(F&& body) {
  std::string bytes;
  for (size_t i = 0; i < entries_.size(); ++i) {
    read_back(i, bytes);
    body(bytes, entries_[i].tag);
  }
  clear();
}

}  // namespace sasskit::ctasample
