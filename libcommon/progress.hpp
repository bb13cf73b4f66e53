// A one-line progress indicator on stderr, shown only when stderr is a
// terminal and --quiet is off; redrawn at most a few times per second.
//
// The stages of a pipe share one terminal line. Each line is written whole,
// "tool: status", in one write(2), so stages replace each other's lines but
// never garble them; only a stage reading a file (not a pipe) shows how much
// it has read, so in `trace-unpack FILE | ... | pipe-sim | stall-report` the
// line is the first stage's reading, then pipe-sim's simulating. The line is
// cleared when its Progress ends, before any message (diag.hpp), and when a
// signal ends the tool (SIGPIPE from a closed pipe included).
//
// The time left is the whole job's as far as a stage can know it: a tool
// reading several files (an Accel-Sim directory's kernel traces,
// stall-report's runs) shows one line for all of them (ReadingJob). In a
// pipe only the first stage knows the size of the input; the pipe's small
// buffers make it read at the pace of the slowest stage after it, so its
// time left is the pipe's, but for what later stages do once their input
// has ended (pipe-sim's last batch), which their own lines then show.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <streambuf>
#include <string>
#include <vector>

namespace sasskit {

class Progress {
 public:
  Progress();
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  bool active() const { return active_; }
  // Redraws the line with `status` unless it was redrawn very recently.
  void update(const std::string& status);
  // Clears the line.
  void done();

 private:
  bool active_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point last_{};
};

// Whether progress lines are drawn: stderr is a terminal and no --quiet.
bool progress_enabled();

// Clears the progress line if one is on the screen, so that what is
// written next starts on a clean line.
void clear_progress_line();

// Progress of work counted in units (pipe-sim: SM segments simulated), as
// "WHAT: 42%, 1m05s left".
class WorkProgress {
 public:
  explicit WorkProgress(std::string what) : what_(std::move(what)) {}
  void expect(uint64_t units) { total_ += units; }
  void advance(uint64_t units = 1);

 private:
  Progress line_;
  std::string what_;
  uint64_t total_ = 0, done_ = 0;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// "42%, 1m05s left" for `done` of `total` after `elapsed_s` seconds; the
// time left is omitted until 1% and 1 s have passed and a rate is known.
std::string percent_and_eta(double done, double total, double elapsed_s);

// The size of the file behind `path` ("-": stdin) when it is a non-empty
// regular file, so the share read can be shown.
std::optional<uint64_t> regular_file_size(const std::string& path);

// Several files read one after another as one job: while a ReadingJob
// lives, every progress_reader shows the share of all of `paths` read
// (those that are regular files) and the time left for all of them, as
// "reading NAME: 42%, 1m05s left", on one line.
class ReadingJob {
 public:
  ReadingJob(std::string name, const std::vector<std::string>& paths);
  ~ReadingJob();
  // More files for the job, known once some were read (a directory's list).
  void expect(const std::vector<std::string>& paths);
  ReadingJob(const ReadingJob&) = delete;
  ReadingJob& operator=(const ReadingJob&) = delete;

  // The bytes of the job read so far, and the line for them.
  void read(uint64_t bytes);

 private:
  std::string name_;
  uint64_t total_ = 0, read_ = 0;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  Progress line_;
  ReadingJob* outer_;  // the job this one interrupts, if any
};

// A stream buffer that passes `source` (a file of `size` bytes) through
// unchanged and shows on the progress line how much of `name` was read: a
// percentage and the time left; within a ReadingJob, the job's.
std::unique_ptr<std::streambuf> progress_reader(std::streambuf& source, uint64_t size, std::string name);

}  // namespace sasskit
