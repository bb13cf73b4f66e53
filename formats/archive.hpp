// The sasskit archive (formats/ARCHIVE.md): a trace stored compactly with an
// index by kernel. ArchiveWriter takes a trace in stream order (memcpy,
// kernel, insts slices, cta ...) and writes it block by block, so memory is
// bounded by one block, one CTA and the per-kernel dictionaries whatever the
// trace size. ArchiveReader opens an archive file, lists its entries from the
// index (no other data is read) and streams one kernel at a time.
//
// Reading, the whole API:
//
//   archive::ArchiveReader ar("app.sass.z");          // BadInput/Io on a bad file
//   for (const archive::Entry& e : ar.entries()) {   // kernelslist.g order
//     if (auto* m = std::get_if<Memcpy>(&e)) ...;     // a MemcpyHtoD line
//     auto& k = std::get<archive::KernelEntry>(e);    // k.info: the kernel record
//     ar.read_kernel(k, sink);                        // accelsim::KernelSink
//   }
//
// read_kernel calls sink.kernel once, sink.insts once with the kernel's whole
// instruction table (first = 0), then sink.cta for each CTA in trace order.
// Damage is a BadInput error "FILE: damaged archive: ..." naming the block;
// a cut file is "FILE: truncated archive (kernel 3 block at offset N)"; a file
// that is no archive is "FILE: not a sasskit archive".
#pragma once

#include <cstdint>
#include <exception>
#include <fstream>
#include <memory>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "formats/accelsim.hpp"
#include "formats/archive_block.hpp"
#include "formats/archive_bytes.hpp"
#include "formats/trace.hpp"

namespace sasskit::archive {

inline constexpr uint16_t kMajor = 1;
inline constexpr uint16_t kMinor = 0;
// First 8 bytes of every archive; the PNG-style \r\n\x1a catches text-mode damage.
inline constexpr std::string_view kMagic{"\x89SKAR\r\n\x1a", 8};
// Last 8 bytes, after the index offset.
inline constexpr std::string_view kTrailerMagic{"SKARIDX\n", 8};
inline constexpr size_t kHeaderSize = 12;   // magic, major, minor
inline constexpr size_t kTrailerSize = 16;  // index offset, trailer magic

// Whether `head` (the first bytes of a file) starts like an archive.
inline bool has_archive_magic(std::string_view head) { return head.substr(0, kMagic.size()) == kMagic; }

struct WriterOptions {
  Codec codec = Codec::Xz;
  uint32_t block_bytes = 8u << 20;  // raw bytes per CTA block before it is compressed
  uint64_t dict_bytes = 64u << 20;  // cap of a kernel's (inst, mask) sequence dictionary
  static constexpr uint64_t kMaxDictBytes = uint64_t(1) << 36;  // readers refuse a larger cap
};

class ArchiveWriter {
 public:
  ArchiveWriter(std::ostream& out, std::string name, WriterOptions options = {});
  ~ArchiveWriter();
  void memcpy(const Memcpy& copy);
  void kernel(const KernelInfo& kernel);  // starts a kernel, ending the previous one
  void insts(const InstTable& slice);     // contiguous slices of the current kernel's table
  void cta(const CtaTrace& cta);          // must follow the insts entries it uses
  // Ends the last kernel and writes the index and trailer; the caller commits `out`.
  void finish();
  uint64_t bytes_written() const { return offset_; }

 private:
  struct Open;
  void write(std::string_view bytes);
  void flush_block();
  void end_kernel();

  std::ostream& out_;
  std::string name_;
  WriterOptions options_;
  uint64_t offset_ = 0;
  ByteSink index_;
  uint64_t entries_ = 0;
  std::unique_ptr<Open> open_;  // the kernel being written
};

struct KernelEntry {
  KernelInfo info;
  uint64_t ctas = 0;
  uint64_t meta_offset = 0;  // its kernel block
};
using Entry = std::variant<Memcpy, KernelEntry>;

class ArchiveReader {
 public:
  explicit ArchiveReader(const std::string& path) : ArchiveReader(path, path) {}
  // Reads `path`, naming it `name` in messages (an archive spooled from
  // stdin is "<stdin>").
  ArchiveReader(const std::string& path, std::string name);
  const std::string& name() const { return name_; }
  const std::vector<Entry>& entries() const { return entries_; }
  // The first kernel with this id, or nullptr.
  const KernelEntry* find_kernel(uint32_t id) const;
  // With `threads` > 1, that many CTA blocks at a time are decompressed on
  // the threads; their CTAs are still decoded in order on the calling thread
  // (the dictionary spans blocks), and the first error in file order is the
  // one thrown, after the CTAs before it are given.
  void read_kernel(const KernelEntry& kernel, const accelsim::KernelSink& sink, unsigned threads = 1);

 private:
  struct StoredBlock {
    BlockHeader header;
    std::string stored, where;
  };
  std::string read_block(uint64_t offset, BlockKind kind, uint32_t kernel);
  // A block as stored, its header checked: read_block but for decompressing it.
  StoredBlock read_stored(uint64_t offset, BlockKind kind, uint32_t kernel);
  struct RawBlock {
    std::string bytes;
    std::string where;         // the block's name in messages
    std::exception_ptr error;  // why it could not be read, if it could not
  };
  void read_raw_blocks(std::span<const std::pair<uint64_t, uint64_t>> blocks, uint32_t kernel, unsigned threads,
                       std::vector<RawBlock>& raw);
  std::string block_name(uint64_t offset, uint32_t kernel) const;
  [[noreturn]] void report_truncation();

  std::string name_;
  std::ifstream file_;
  uint64_t size_ = 0;
  std::vector<Entry> entries_;
};

}  // namespace sasskit::archive
