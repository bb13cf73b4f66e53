#include "spill.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <unistd.h>

#include "libcommon/diag.hpp"

namespace sasskit {

namespace {

constexpr size_t kWriteBufferBytes = size_t{256} << 10;
std::atomic<size_t> g_memory_taken{0};  // by every SpillFile of the process
std::atomic<uint64_t> g_next_id{1};

uint64_t new_id() { return g_next_id.fetch_add(1, std::memory_order_relaxed); }

bool take_memory(size_t bytes) {
  size_t taken = g_memory_taken.load(std::memory_order_relaxed);
  do {
    if (bytes > kSpillMemoryBytes - taken) return false;
  } while (!g_memory_taken.compare_exchange_weak(taken, taken + bytes, std::memory_order_relaxed));
  return true;
}

}  // namespace

SpillFile::SpillFile() : id_(new_id()) {}

void SpillFile::open_file() {
  const char* dir = std::getenv("TMPDIR");
  path_ = std::string(dir && *dir ? dir : "/tmp") + "/sasskit-spill.XXXXXX";
  fd_ = mkstemp(path_.data());
  if (fd_ < 0) fail_io(path_, "cannot create a temporary file");
  unlink(path_.c_str());  // anonymous from now on
  write_buffer_ = std::make_unique_for_overwrite<char[]>(kWriteBufferBytes);
}

SpillFile::~SpillFile() {
  if (fd_ >= 0) close(fd_);
  g_memory_taken.fetch_sub(memory_taken_, std::memory_order_relaxed);
}

namespace {
constexpr size_t kTagBytes = sizeof(int64_t);
const char* const kWriteFailed = "cannot write the temporary file (disk full, or over the file-size limit?)";
}  // namespace

bool SpillFile::keep_in_memory(size_t length) {
  if (on_file_) return false;
  const size_t needed = memory_.size() + length;
  if (needed <= memory_taken_) return true;
  // Room doubles from 64 KiB: few blocks, and little room taken from the
  // process's share by a small spill.
  size_t room = std::max(needed, std::min(std::max<size_t>(2 * memory_taken_, 64 << 10), kSpillMemoryBytes));
  if (!take_memory(room - memory_taken_)) {
    room = needed;
    if (!take_memory(room - memory_taken_)) return false;
  }
  memory_.add_room(room - memory_taken_);
  memory_taken_ = room;
  return true;
}

void SpillFile::Memory::add_room(size_t bytes) {
  blocks_.push_back(Block{std::make_unique_for_overwrite<char[]>(bytes), bytes});
  room_ += bytes;
}

void SpillFile::Memory::append(const char* bytes, size_t length) {
  size_ += length;
  while (length > 0) {
    const Block& block = blocks_[write_block_];
    const size_t n = std::min(length, block.size - write_at_);
    std::memcpy(block.bytes.get() + write_at_, bytes, n);
    bytes += n;
    length -= n;
    write_at_ += n;
    if (write_at_ == block.size && write_block_ + 1 < blocks_.size()) {
      ++write_block_;
      write_at_ = 0;
    }
  }
}

void SpillFile::Memory::copy_out(uint64_t offset, char* to, size_t length) const {
  for (const Block& block : blocks_) {
    if (length == 0) return;
    if (offset >= block.size) {
      offset -= block.size;
      continue;
    }
    const size_t n = std::min<uint64_t>(length, block.size - offset);
    std::memcpy(to, block.bytes.get() + offset, n);
    to += n;
    length -= n;
    offset = 0;
  }
}

void SpillFile::Memory::clear() {
  size_ = 0;
  write_block_ = 0;
  write_at_ = 0;
}

// Appends to the file through a buffer of its own (a stdio stream would
// lock and search for each of a record's two parts: a third of the
// appending's cost in the reading thread).
void SpillFile::write(const char* bytes, size_t length) {
  if (length > kWriteBufferBytes - buffered_) write_buffered();
  if (length >= kWriteBufferBytes) return write_at_end(bytes, length);
  std::memcpy(write_buffer_.get() + buffered_, bytes, length);
  buffered_ += length;
}

void SpillFile::write_buffered() {
  write_at_end(write_buffer_.get(), buffered_);
  buffered_ = 0;
}

void SpillFile::write_at_end(const char* bytes, size_t length) {
  for (size_t done = 0; done < length;) {
    const ssize_t n = pwrite(fd_, bytes + done, length - done, static_cast<off_t>(file_bytes_));
    if (n <= 0) fail_io(path_, kWriteFailed);
    done += static_cast<size_t>(n);
    file_bytes_ += static_cast<uint64_t>(n);
  }
}

size_t SpillFile::append(std::string_view bytes, int64_t tag) {
  // The bytes live and die with this process: the tag in native byte order.
  if (keep_in_memory(kTagBytes + bytes.size())) {
    memory_.append(reinterpret_cast<const char*>(&tag), kTagBytes);
    memory_.append(bytes.data(), bytes.size());
  } else {
    if (fd_ < 0) open_file();
    on_file_ = true;
    write(reinterpret_cast<const char*>(&tag), kTagBytes);
    write(bytes.data(), bytes.size());
  }
  offsets_.push_back(end_);
  end_ += kTagBytes + bytes.size();
  return offsets_.size() - 1;
}

void SpillFile::flush() {
  if (buffered_ > 0) write_buffered();
}

void SpillFile::read_at(uint64_t offset, char* to, size_t length) const {
  size_t done = offset < memory_.size() ? std::min<uint64_t>(length, memory_.size() - offset) : 0;
  memory_.copy_out(offset, to, done);
  while (done < length) {  // the rest is on file, from memory's end on
    ssize_t n = pread(fd_, to + done, length - done, static_cast<off_t>(offset + done - memory_.size()));
    if (n <= 0) fail_io(path_, "cannot read the temporary file back");
    done += static_cast<size_t>(n);
  }
}

uint64_t SpillFile::end_of(size_t index) const {
  return index + 1 < offsets_.size() ? offsets_[index + 1] : end_;
}

int64_t SpillFile::tag_at(const char* record) {
  int64_t tag;
  std::memcpy(&tag, record, kTagBytes);
  return tag;
}

int64_t SpillFile::read(size_t index, std::string& bytes) const {
  const uint64_t offset = offsets_[index];
  bytes.resize(end_of(index) - offset);  // one read for the tag and the record
  read_at(offset, bytes.data(), bytes.size());
  const int64_t tag = tag_at(bytes.data());
  bytes.erase(0, kTagBytes);
  return tag;
}

namespace {
// What read_near reads at once where its reads are far apart (e.g. kernels
// that run together): little more than the record, as read() would.
constexpr size_t kFarBytes = size_t{16} << 10;
}  // namespace

int64_t SpillFile::read_near(size_t index, std::string& bytes) const {
  if (end_of(index) <= memory_.size()) return read(index, bytes);
  struct Near {
    uint64_t spill = 0;  // the id_ of the records its window holds
    Window window;
    std::optional<uint64_t> last_fill;  // where the window was last read from
  };
  thread_local Near near;
  if (near.spill != id_) {
    near.spill = id_;
    near.window.size = 0;  // keeps its room
    near.last_fill.reset();
  }
  if (!holds(near.window, index)) {
    const uint64_t offset = offsets_[index];
    const auto distance = [](uint64_t a, uint64_t b) { return a > b ? a - b : b - a; };
    const bool close = near.last_fill && distance(offset, *near.last_fill) <= kRunBytes;
    fill(near.window, index, end_, close ? kRunBytes : kFarBytes);
    near.last_fill = offset;
  }
  return take(near.window, index, bytes);
}

char* SpillFile::Window::take_room(size_t n) {
  if (n > room_size) {
    room = std::make_unique_for_overwrite<char[]>(n);
    room_size = n;
  }
  size = n;
  return room.get();
}

bool SpillFile::holds(const Window& w, size_t index) const {
  return offsets_[index] >= w.at && end_of(index) <= w.at + w.size;
}

void SpillFile::fill(Window& w, size_t index, uint64_t limit, size_t want) const {
  const uint64_t offset = offsets_[index];
  const size_t length = std::min<uint64_t>(limit - offset, std::max<uint64_t>(want, end_of(index) - offset));
  read_at(offset, w.take_room(length), length);
  w.at = offset;
}

int64_t SpillFile::view(const Window& w, size_t index, std::string_view& bytes) const {
  const uint64_t offset = offsets_[index];
  const char* record = w.room.get() + (offset - w.at);
  bytes = std::string_view(record + kTagBytes, end_of(index) - offset - kTagBytes);
  return tag_at(record);
}

int64_t SpillFile::take(const Window& w, size_t index, std::string& bytes) const {
  std::string_view view_of_it;
  const int64_t tag = view(w, index, view_of_it);
  bytes.assign(view_of_it);
  return tag;
}

void SpillFile::clear() {
  id_ = new_id();  // what the threads' buffers hold is no longer these records
  offsets_.clear();
  end_ = 0;
  memory_.clear();  // its room stays, for the next records
  on_file_ = false;
  buffered_ = 0;
  file_bytes_ = 0;
  if (fd_ >= 0 && ftruncate(fd_, 0) != 0) fail_io(path_, "cannot reset the temporary file");
}

}  // namespace sasskit
