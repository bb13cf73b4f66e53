// Records (raw bytes) kept until a tool can use them: memory stays bounded
// whatever a kernel's size. cta-sample replays a kernel's records once it
// knows which to keep; rd-cache once it has written the kernel's cache record;
// pipe-sim reads each CTA back when an SM launches it. The first records are
// kept in memory while all of a process's spills hold under kSpillMemoryBytes
// there (small inputs then never touch a file); the rest go to an anonymous
// temporary file in $TMPDIR (default /tmp), made when first needed and
// removed when closed. Memory also holds one offset (8 bytes) per record: a
// record's tag is stored ahead of its bytes, and its length follows from the
// next offset.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace sasskit {

// What all the spills of a process keep in memory together, at most.
inline constexpr size_t kSpillMemoryBytes = size_t(4) << 20;

class SpillFile {
 public:
  SpillFile();
  ~SpillFile();
  SpillFile(const SpillFile&) = delete;
  SpillFile& operator=(const SpillFile&) = delete;

  // Appends a record's bytes with a tag kept beside it; returns its index.
  size_t append(std::string_view bytes, int64_t tag = 0);
  size_t size() const { return offsets_.size(); }
  // Reads the records back in order: body(bytes, tag), `bytes` a view
  // valid for the call, a buffer of the file read at a time rather than a
  // record. Then empties the file.
  template <class F>
  void replay(F&& body);
  // Reads records [begin, end) back in order: body(bytes, tag), `bytes` a
  // view valid for the call; as replay does, a buffer of the file is read
  // at a time rather than a record (never past the last record). Needs
  // flush(), as read() does.
  template <class F>
  void read_run(size_t begin, size_t end, F&& body) const;
  // Makes every appended record readable by read(); call before reading.
  void flush();
  // Forgets every record: the file is empty again, to be reused.
  void clear();
  // Record `index` (any order; safe from several threads at once once
  // flushed, while nothing is appended); returns its tag.
  int64_t read(size_t index, std::string& bytes) const;
  // As read(), for threads that each take records in about ascending order
  // (pipe-sim's SMs): a record on file comes out of a stretch of the file
  // that the calling thread keeps, read from the record on when it does not
  // hold it: 256 KiB where the one before was read from near it, 16 KiB
  // where not.
  int64_t read_near(size_t index, std::string& bytes) const;

 private:
  // Whether the next `length` bytes stay in memory; takes the room from the
  // process's share.
  bool keep_in_memory(size_t length);
  void open_file();
  void read_at(uint64_t offset, char* to, size_t length) const;
  // Where record `index` ends in the file; the tag a record starts with.
  uint64_t end_of(size_t index) const;
  static int64_t tag_at(const char* record);
  // A stretch of the file read at once, that records are taken out of. Its
  // room is not zeroed before a read fills it: a string's resize would zero
  // every byte it adds, and read_near's reads alternate between sizes.
  struct Window {
    std::unique_ptr<char[]> room;
    size_t room_size = 0;
    size_t size = 0;  // bytes read into room
    uint64_t at = 0;  // the offset of room[0]
    char* take_room(size_t n);  // size = n, room grown (not zeroed) where short
  };
  // What read_run and replay read at once, and read_near where its reads
  // are near one another: few system calls, little memory.
  static constexpr size_t kRunBytes = size_t{256} << 10;
  bool holds(const Window& w, size_t index) const;
  // Reads `want` bytes from record `index` on into `w`, or the record if
  // longer, never past `limit`.
  void fill(Window& w, size_t index, uint64_t limit, size_t want) const;
  // Record `index`, which `w` holds; returns its tag.
  int64_t take(const Window& w, size_t index, std::string& bytes) const;
  // The same as a view into `w`.
  int64_t view(const Window& w, size_t index, std::string_view& bytes) const;
  void write(const char* bytes, size_t length);
  void write_buffered();
  void write_at_end(const char* bytes, size_t length);

  uint64_t id_;            // of these records, unique in the process (read_near's buffers)
  // The first records' bytes, in blocks added as the room grows, so that
  // no byte is copied to a larger block (with one string, each doubling
  // faulted in fresh pages and copied: a seventh of rd-cache's reading
  // thread's time on a kernel of 65,536 CTAs).
  class Memory {
   public:
    size_t size() const { return size_; }
    size_t room() const { return room_; }
    void add_room(size_t bytes);
    void append(const char* bytes, size_t length);  // within the room
    void copy_out(uint64_t offset, char* to, size_t length) const;  // of what it holds
    void clear();  // its room stays

   private:
    struct Block {
      std::unique_ptr<char[]> bytes;
      size_t size;
    };
    std::vector<Block> blocks_;
    size_t size_ = 0, room_ = 0;
    size_t write_block_ = 0, write_at_ = 0;  // where the next byte goes
  };
  Memory memory_;            // the first records: offsets [0, memory_.size())
  size_t memory_taken_ = 0;  // of the process's share: memory_'s room
  bool on_file_ = false;   // a record went to the file: the later ones follow it
  int fd_ = -1;             // the file: offsets from memory_.size() on
  std::unique_ptr<char[]> write_buffer_;  // what is appended, on its way to the file
  size_t buffered_ = 0;    // bytes in write_buffer_
  uint64_t file_bytes_ = 0;  // bytes written to the file
  std::string path_ = "temporary file";
  std::deque<uint64_t> offsets_;  // of each record's tag (grows without copying itself)
  uint64_t end_ = 0;  // bytes appended
};

template <class F>
void SpillFile::replay(F&& body) {
  flush();
  read_run(0, offsets_.size(), body);
  clear();
}

template <class F>
void SpillFile::read_run(size_t begin, size_t end, F&& body) const {
  if (begin >= end) return;
  const uint64_t limit = end_of(end - 1);
  Window window;
  std::string_view bytes;
  for (size_t i = begin; i < end; ++i) {
    if (!holds(window, i)) fill(window, i, limit, kRunBytes);
    const int64_t tag = view(window, i, bytes);
    body(bytes, tag);
  }
}

}  // namespace sasskit
