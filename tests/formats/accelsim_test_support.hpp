// Helpers for the Accel-Sim text tests: read text into records, write
// records back, compare text with whitespace normalised.
#pragma once

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "formats/accelsim.hpp"
#include "formats/accelsim_parser.hpp"
#include "libcommon/diag.hpp"

namespace sasskit::test {

struct Records {
  std::vector<KernelInfo> kernels;
  std::vector<InstTable> tables;
  std::vector<CtaTrace> ctas;
  bool operator==(const Records&) const = default;
};

inline Records read_records(std::istream& in, const std::string& path = "t.traceg") {
  Records r;
  accelsim::KernelSink sink{[&](const KernelInfo& k) { r.kernels.push_back(k); },
                            [&](const InstTable& t) { r.tables.push_back(t); },
                            [&](const CtaTrace& c) { r.ctas.push_back(c); }};
  accelsim::read_kernel_trace(in, path, sink);
  return r;
}

inline Records read_records(const std::string& text, const std::string& path = "t.traceg") {
  std::istringstream in(text);
  return read_records(in, path);
}

// Reads `text` and writes it back through KernelTraceWriter, streaming.
inline std::string rewrite(std::istream& in, const std::string& path = "t.traceg") {
  std::ostringstream out;
  std::unique_ptr<accelsim::KernelTraceWriter> writer;
  accelsim::KernelSink sink{
      [&](const KernelInfo& k) { writer = std::make_unique<accelsim::KernelTraceWriter>(out, k); },
      [&](const InstTable& t) { writer->insts(t); },
      [&](const CtaTrace& c) { writer->cta(c); }};
  accelsim::read_kernel_trace(in, path, sink);
  return out.str();
}

inline std::string rewrite(const std::string& text) {
  std::istringstream in(text);
  return rewrite(in);
}

// Runs of spaces and tabs collapse to one space, trailing ones and blank
// lines go (the normalisation formats/ACCELSIM.md promises).
inline std::string normalise(const std::string& text) {
  std::string out, line;
  std::istringstream in(text);
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string word, joined;
    while (words >> word) joined += (joined.empty() ? "" : " ") + word;
    if (!joined.empty()) out += joined + "\n";
  }
  return out;
}

// "file:line: message" of the BadInput error reading `text` raises.
inline std::string read_error(const std::string& text) {
  try {
    read_records(text);
  } catch (const Error& e) {
    if (e.code() != ExitCode::BadInput) return "not BadInput: " + std::string(e.what());
    return e.where() + ": " + e.what();
  }
  return "no error";
}

// All that reading `text` gives: the records in order ('k', 't' and 'c' per
// record, in `order`), and the refusal that ended it ("file:line: message",
// empty if none). With `threads` > 1, thread blocks are parsed in pieces of
// about `piece_size` bytes.
struct Reading {
  Records records;
  std::string order;
  std::string error;
  bool operator==(const Reading&) const = default;
};

inline Reading read_all(const std::string& text, unsigned threads = 1, size_t piece_size = 1) {
  Reading r;
  accelsim::KernelSink sink{[&](const KernelInfo& k) { r.records.kernels.push_back(k), r.order += 'k'; },
                            [&](const InstTable& t) { r.records.tables.push_back(t), r.order += 't'; },
                            [&](const CtaTrace& c) { r.records.ctas.push_back(c), r.order += 'c'; }};
  std::istringstream in(text);
  try {
    accelsim::detail::read_kernel_trace_in_pieces(in, "t.traceg", sink, threads, piece_size);
  } catch (const Error& e) {
    r.error = e.code() == ExitCode::BadInput ? e.where() + ": " + e.what() : "not BadInput: " + std::string(e.what());
  }
  return r;
}

// A kernel header as the tracer writes it.
inline std::string header(int version, bool lineinfo = false, const std::string& comment =
                              "#traces format = [line_num] PC mask dest_num [reg_dests] opcode "
                              "src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses]") {
  std::string h =
      "-kernel name = _Z6kernelPfS_i\n"
      "-kernel id = 2\n"
      "-grid dim = (2,1,1)\n"
      "-block dim = (64,1,1)\n"
      "-shmem = 1024\n"
      "-nregs = 16\n"
      "-binary version = 70\n"
      "-cuda stream id = 0\n"
      "-shmem base_addr = 0x00007f2b5a000000\n"
      "-local mem base_addr = 0x00007f2b58000000\n"
      "-nvbit version = 1.5.5\n"
      "-accelsim tracer version = " + std::to_string(version) + "\n";
  if (version >= 4) h += std::string("-enable lineinfo = ") + (lineinfo ? "1" : "0") + "\n";
  return h + "\n" + comment + "\n\n";
}

}  // namespace sasskit::test
