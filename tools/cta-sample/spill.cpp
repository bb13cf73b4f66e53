#include "spill.hpp"

#include <cstdlib>
#include <unistd.h>

#include "libcommon/diag.hpp"

namespace sasskit::ctasample {

SpillFile::SpillFile() {
  const char* dir = std::getenv("TMPDIR");
  path_ = std::string(dir && *dir ? dir : "/tmp") + "/cta-sample.XXXXXX";
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

void SpillFile::append(const std::string& bytes, int64_t tag) {
  if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size())
    fail_io(path_, "cannot write the temporary file (disk full?)");
  entries_.push_back({bytes.size(), tag});
}

void SpillFile::read_back(size_t index, std::string& bytes) {
  if (index == 0 && (std::fflush(file_) != 0 || std::fseek(file_, 0, SEEK_SET) != 0))
    fail_io(path_, "cannot rewind the temporary file");
  bytes.resize(entries_[index].length);
  if (std::fread(bytes.data(), 1, bytes.size(), file_) != bytes.size())
    fail_io(path_, "cannot read the temporary file back");
}

void SpillFile::clear() {
  entries_.clear();
  if (std::fseek(file_, 0, SEEK_SET) != 0 || ftruncate(fileno(file_), 0) != 0)
    fail_io(path_, "cannot reset the temporary file");
}

}  // namespace sasskit::ctasample
