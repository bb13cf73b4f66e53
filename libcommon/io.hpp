// File-or-stdin input with compression detected by magic bytes, and
// all-or-nothing output: `-o FILE` goes to a temporary file renamed on commit.
#pragma once

#include <signal.h>

#include <cstddef>
#include <istream>
#include <memory>
#include <ostream>
#include <string>

namespace sasskit {

// An input opened by path, or stdin for "-". Transparently decompresses
// gzip and xz whatever the file is called, recognised by their first bytes
// however few bytes each read of a slow pipe returns. A file read with stderr
// on a terminal (and no --quiet) shows the percentage read and the time left.
class Input {
 public:
  explicit Input(const std::string& path);
  ~Input();
  Input(const Input&) = delete;
  Input& operator=(const Input&) = delete;

  std::istream& stream() { return *stream_; }
  // The name for messages: the path, or "<stdin>".
  const std::string& name() const { return name_; }
  // Raises an Io error if the underlying read failed (not at plain EOF).
  void check_read_error() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::istream* stream_ = nullptr;
  std::string name_;
};

// While alive, `path` (a file, or a directory holding only files) is
// removed if SIGINT, SIGTERM, SIGHUP or SIGQUIT ends the run.
class RemoveOnSignal {
 public:
  RemoveOnSignal(const std::string& path, bool directory);
  ~RemoveOnSignal();
  RemoveOnSignal(const RemoveOnSignal&) = delete;
  RemoveOnSignal& operator=(const RemoveOnSignal&) = delete;

 private:
  size_t slot_ = static_cast<size_t>(-1);
};

// While alive, the signals RemoveOnSignal handles wait: a temporary is
// created and registered inside one, so that no such signal comes between
// the two and leaves it behind.
class CleanupSignalsHeld {
 public:
  CleanupSignalsHeld();
  ~CleanupSignalsHeld();
  CleanupSignalsHeld(const CleanupSignalsHeld&) = delete;
  CleanupSignalsHeld& operator=(const CleanupSignalsHeld&) = delete;

 private:
  sigset_t before_;
};

// A new file beside another path, created with O_EXCL under a name no file
// has (one taken, or planted as a link, makes it try another), so a
// temporary is never written through someone else's link. From the moment
// it exists until it is renamed into place it is removed if the run ends:
// by a signal, or by the Temporary's destruction (a failed run).
class Temporary {
 public:
  Temporary() = default;
  Temporary(Temporary&& other) noexcept;
  Temporary& operator=(Temporary&& other) noexcept;
  ~Temporary();

  const std::string& path() const { return path_; }
  // Renames the file to `target`; an Io error naming `name` if that fails
  // (the file is then removed with the Temporary).
  void rename_to(const std::string& target, const std::string& name);

 private:
  friend Temporary create_temporary_beside(const std::string& path, int* fd);
  std::string path_;  // empty: nothing to remove
  std::unique_ptr<RemoveOnSignal> on_signal_;
};
// The temporary beside `path`; `fd`, when given, gets its open descriptor,
// else it is closed.
Temporary create_temporary_beside(const std::string& path, int* fd = nullptr);

enum class OutputKind { Text, Binary };

// An output by path or "-" for stdout. A file is written to a temporary
// next to it and renamed by commit(); destroyed without commit, or ended by
// SIGINT, SIGTERM, SIGHUP or SIGQUIT, it removes the temporary so a failed
// run leaves no partial file. An existing device, FIFO or socket is written
// in place, never replaced. A binary stream to a terminal is refused unless
// `force`.
class Output {
 public:
  Output(const std::string& path, OutputKind kind, bool force = false);
  Output(const Output&) = delete;
  Output& operator=(const Output&) = delete;

  std::ostream& stream() { return *stream_; }
  const std::string& name() const { return name_; }
  // Flushes, checks every write succeeded, closes and renames into place.
  void commit();

 private:
  Temporary temporary_;  // none for stdout or a special file; destroyed after file_ is closed
  std::unique_ptr<std::ostream> file_;
  std::ostream* stream_ = nullptr;
  std::string path_, name_;
};


// Throws an Io error naming `name` if `out` has failed; flushes first.
void check_written(std::ostream& out, const std::string& name);

bool stderr_is_terminal();

}  // namespace sasskit
