#include "spill.hpp"

#include <cstdlib>
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

size_t SpillFile::append(const std::string& bytes, int64_t tag) {
  if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size())
    fail_io(path_, "cannot write the temporary file (disk full, or over the file-size limit?)");
  entries_.push_back({end_, bytes.size(), tag});
  end_ += bytes.size();
  return entries_.size() - 1;
}

void SpillFile::flush() {
  if (std::fflush(file_) != 0) fail_io(path_, "cannot write the temporary file (disk full, or over the file-size limit?)");
}

void SpillFile::read(size_t index, std::string& bytes) const {
  const Entry& e = entries_[index];
  bytes.resize(e.length);
  size_t done = 0;
  while (done < e.length) {
    ssize_t n = pread(fileno(file_), bytes.data() + done, e.length - done, static_cast<off_t>(e.offset + done));
    if (n <= 0) fail_io(path_, "cannot read the temporary file back");
    done += static_cast<size_t>(n);
  }
}

void SpillFile::clear() {
  entries_.clear();
  end_ = 0;
  if (std::fseek(file_, 0, SEEK_SET) != 0 || ftruncate(fileno(file_), 0) != 0)
    fail_io(path_, "cannot reset the temporary file");
}

}  // namespace sasskit
