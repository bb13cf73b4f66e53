#include "spill.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

#include "libcommon/diag.hpp"

namespace sasskit {

SpillFile::SpillFile() {
  const char* dir = std::getenv("TMPDIR");
  path_ = std::string(dir && *dir ? dir : "/tmp") + "/sasskit-spill.XXXXXX";
  int fd = mkstemp(path_.data());
  if (fd < 0) fail_io(path_, "cannot create a temporary file");
  unlink(path_.c_str());  // anonymous from now on
  file_ = fdopen(fd, "w+b");
  if (!file_) {
    close(fd);
    fail_io(path_, "cannot open a temporary file");
  }
}

SpillFile::~SpillFile() {
  if (file_) std::fclose(file_);
}

namespace {
constexpr size_t kTagBytes = sizeof(int64_t);
const char* const kWriteFailed = "cannot write the temporary file (disk full, or over the file-size limit?)";
}  // namespace

void SpillFile::write(const void* bytes, size_t length) {
  if (std::fwrite(bytes, 1, length, file_) != length) fail_io(path_, kWriteFailed);
}

size_t SpillFile::append(const std::string& bytes, int64_t tag) {
  write(&tag, kTagBytes);  // the file lives and dies with this process: native byte order
  write(bytes.data(), bytes.size());
  offsets_.push_back(end_);
  end_ += kTagBytes + bytes.size();
  return offsets_.size() - 1;
}

void SpillFile::flush() {
  if (std::fflush(file_) != 0) fail_io(path_, kWriteFailed);
}

void SpillFile::read_at(uint64_t offset, char* to, size_t length) const {
  size_t done = 0;
  while (done < length) {
    ssize_t n = pread(fileno(file_), to + done, length - done, static_cast<off_t>(offset + done));
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
// replay's reads: few system calls, little memory.
constexpr size_t kReplayBufferBytes = size_t{256} << 10;
}  // namespace

int64_t SpillFile::read_through(size_t index, std::string& buffer, uint64_t* buffer_at, std::string& bytes) const {
  const uint64_t offset = offsets_[index], next = end_of(index);
  if (offset < *buffer_at || next > *buffer_at + buffer.size()) {
    buffer.resize(std::min<uint64_t>(end_ - offset, std::max<uint64_t>(kReplayBufferBytes, next - offset)));
    read_at(offset, buffer.data(), buffer.size());
    *buffer_at = offset;
  }
  const char* record = buffer.data() + (offset - *buffer_at);
  bytes.assign(record + kTagBytes, next - offset - kTagBytes);
  return tag_at(record);
}

void SpillFile::clear() {
  offsets_.clear();
  end_ = 0;
  if (std::fseek(file_, 0, SEEK_SET) != 0 || ftruncate(fileno(file_), 0) != 0)
    fail_io(path_, "cannot reset the temporary file");
}

}  // namespace sasskit
