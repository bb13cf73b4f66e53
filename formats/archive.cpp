#include "formats/archive.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "formats/archive_cta.hpp"
#include "formats/records.hpp"
#include "libcommon/diag.hpp"
#include "libcommon/parallel.hpp"

namespace sasskit::archive {
namespace {

enum EntryKind : uint8_t { kMemcpyEntry = 0, kKernelEntry = 1 };

// Kernel launch info and instruction tables are kept as stream records, so
// the archive and the stream cannot drift apart on those fields.
template <class T>
std::string pack_record(const T& value) {
  msgpack::sbuffer buf;
  stream::Packer pk(buf);
  stream::RecordCodec<T>::pack(pk, value);
  return std::string(buf.data(), buf.size());
}

template <class T>
T unpack_record(std::string_view bytes, const std::string& where) {
  try {
    stream::Record r{std::string(bytes), where};
    if (r.type() != stream::RecordCodec<T>::type) fail_input(where, "damaged archive: unexpected record " + r.type_name());
    return stream::decode<T>(r);
  } catch (const Error&) {
    throw;
  } catch (const std::exception&) {
    fail_input(where, "damaged archive: unreadable record");
  }
}

std::string kernel_label(uint32_t kernel) {
  return kernel == kNoKernel ? "index block" : "kernel " + std::to_string(kernel) + " block";
}

}  // namespace

// ---- writer ----

struct ArchiveWriter::Open {
  Open(const KernelInfo& k, uint64_t dict_bytes) : info(k), encoder(k, dict_bytes) {}
  KernelInfo info;
  std::vector<StaticInst> table;
  CtaEncoder encoder;
  Columns columns;
  uint64_t block_ctas = 0, ctas = 0;
  ByteSink blocks;  // offset, CTA count of each block
  uint64_t block_count = 0;
};

ArchiveWriter::ArchiveWriter(std::ostream& out, std::string name, WriterOptions options)
    : out_(out), name_(std::move(name)), options_(options) {
  ByteSink head;
  head.raw(kMagic);
  head.fixed(kMajor, 2);
  head.fixed(kMinor, 2);
  write(head.data());
}

ArchiveWriter::~ArchiveWriter() = default;

void ArchiveWriter::write(std::string_view bytes) {
  out_.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out_) fail_io(name_, "write failed");
  offset_ += bytes.size();
}

void ArchiveWriter::memcpy(const Memcpy& copy) {
  end_kernel();
  index_.u8(kMemcpyEntry);
  index_.varint(copy.address);
  index_.varint(copy.bytes);
  ++entries_;
}

void ArchiveWriter::kernel(const KernelInfo& kernel) {
  end_kernel();
  open_ = std::make_unique<Open>(kernel, options_.dict_bytes);
}

void ArchiveWriter::insts(const InstTable& slice) {
  if (!open_ || slice.kernel_id != open_->info.id)
    fail_input("kernel " + std::to_string(slice.kernel_id), "insts record outside its kernel");
  if (slice.first != open_->table.size())
    fail_input("kernel " + std::to_string(slice.kernel_id),
               "insts slice starts at entry " + std::to_string(slice.first) + ", expected " +
                   std::to_string(open_->table.size()));
  open_->table.insert(open_->table.end(), slice.insts.begin(), slice.insts.end());
}

void ArchiveWriter::cta(const CtaTrace& cta) {
  const Dim3& i = cta.cta;
  std::string where = "kernel " + std::to_string(cta.kernel_id) + " CTA (" + std::to_string(i.x) + "," +
                      std::to_string(i.y) + "," + std::to_string(i.z) + ")";
  if (!open_) fail_input(where, "cta record before any kernel record");
  stream::validate_cta(cta, open_->table, where);
  open_->encoder.encode(cta, open_->table, open_->columns);
  ++open_->block_ctas;
  ++open_->ctas;
  if (open_->columns.size() >= options_.block_bytes) flush_block();
}

void ArchiveWriter::flush_block() {
  if (open_->block_ctas == 0) return;
  open_->blocks.varint(offset_);
  open_->blocks.varint(open_->block_ctas);
  ++open_->block_count;
  write(encode_block(BlockKind::Ctas, options_.codec, open_->info.id, open_->columns.join(open_->block_ctas)));
  open_->columns.clear();
  open_->block_ctas = 0;
}

void ArchiveWriter::end_kernel() {
  if (!open_) return;
  flush_block();
  ByteSink meta;
  meta.varint(options_.dict_bytes);
  meta.str(pack_record(InstTable{open_->info.id, 0, open_->table}));
  meta.varint(open_->block_count);
  meta.raw(open_->blocks.data());
  uint64_t meta_offset = offset_;
  write(encode_block(BlockKind::Kernel, options_.codec, open_->info.id, meta.data()));
  index_.u8(kKernelEntry);
  index_.str(pack_record(open_->info));
  index_.varint(open_->ctas);
  index_.varint(meta_offset);
  ++entries_;
  open_.reset();
}

void ArchiveWriter::finish() {
  end_kernel();
  ByteSink index;
  index.varint(entries_);
  index.raw(index_.data());
  uint64_t index_offset = offset_;
  write(encode_block(BlockKind::Index, options_.codec, kNoKernel, index.data()));
  ByteSink trailer;
  trailer.fixed(index_offset, 8);
  trailer.raw(kTrailerMagic);
  write(trailer.data());
}

// ---- reader ----

ArchiveReader::ArchiveReader(const std::string& path, std::string name) : name_(std::move(name)) {
  if (path == "-") fail_usage("an archive is read through its index: give its file name, not stdin");
  if (std::filesystem::is_directory(path)) fail_io(name_, "is a directory");
  file_.open(path, std::ios::binary);
  if (!file_) fail_io(name_, std::strerror(errno));
  file_.seekg(0, std::ios::end);
  size_ = static_cast<uint64_t>(file_.tellg());
  std::string head(std::min<uint64_t>(size_, kHeaderSize), '\0');
  file_.seekg(0);
  file_.read(head.data(), static_cast<std::streamsize>(head.size()));
  if (!has_archive_magic(head)) fail_input(name_, "not a sasskit archive");
  if (size_ < kHeaderSize) report_truncation();
  ByteSource h(std::string_view(head).substr(kMagic.size()), name_);
  uint64_t major = h.fixed(2), minor = h.fixed(2);
  if (major != kMajor)
    fail_input(name_, "archive format version " + std::to_string(major) + "." + std::to_string(minor) +
                         " is not supported (this is " + std::to_string(kMajor) + "." +
                         std::to_string(kMinor) + ")");
  std::string trailer(kTrailerSize, '\0');
  if (size_ < kHeaderSize + kTrailerSize) report_truncation();
  file_.seekg(static_cast<std::streamoff>(size_ - kTrailerSize));
  file_.read(trailer.data(), kTrailerSize);
  if (std::string_view(trailer).substr(8) != kTrailerMagic) report_truncation();
  uint64_t index_offset = ByteSource(trailer, name_).fixed(8);
  if (index_offset < kHeaderSize || index_offset > size_ - kTrailerSize)
    fail_input(name_, "damaged archive: index offset " + std::to_string(index_offset) + " is outside the file");

  std::string index = read_block(index_offset, BlockKind::Index, kNoKernel);
  ByteSource in(index, block_name(index_offset, kNoKernel));
  uint64_t n = in.count();
  for (uint64_t i = 0; i < n; ++i) {
    uint8_t kind = in.u8();
    if (kind == kMemcpyEntry) {
      Memcpy m;
      m.address = in.varint();
      m.bytes = in.varint();
      entries_.emplace_back(m);
    } else if (kind == kKernelEntry) {
      KernelEntry k;
      k.info = unpack_record<KernelInfo>(in.str(), in.where());
      k.ctas = in.varint();
      k.meta_offset = in.varint();
      entries_.emplace_back(std::move(k));
    } else {
      in.damaged("unknown index entry kind " + std::to_string(kind));
    }
  }
  if (!in.done()) in.damaged("data after the last index entry");
}

const KernelEntry* ArchiveReader::find_kernel(uint32_t id) const {
  for (const Entry& e : entries_)
    if (auto* k = std::get_if<KernelEntry>(&e); k && k->info.id == id) return k;
  return nullptr;
}

void ArchiveReader::read_kernel(const KernelEntry& kernel, const accelsim::KernelSink& sink, unsigned threads) {
  uint32_t id = kernel.info.id;
  std::string meta = read_block(kernel.meta_offset, BlockKind::Kernel, id);
  ByteSource in(meta, block_name(kernel.meta_offset, id));
  uint64_t dict_bytes = in.varint();
  if (dict_bytes > WriterOptions::kMaxDictBytes) in.damaged("dictionary cap above 64 GiB");
  InstTable table = unpack_record<InstTable>(in.str(), in.where());
  std::vector<std::pair<uint64_t, uint64_t>> blocks(in.count());
  for (auto& [offset, ctas] : blocks) {
    offset = in.varint();
    ctas = in.varint();
  }
  if (!in.done()) in.damaged("data after the block list");

  if (sink.kernel) sink.kernel(kernel.info);
  if (sink.insts) sink.insts(table);
  CtaDecoder decoder(kernel.info, dict_bytes);
  uint64_t total = 0;
  const size_t group = std::max(1u, threads);
  std::vector<RawBlock> raw(group);
  for (size_t first = 0; first < blocks.size(); first += group) {
    const size_t n = std::min(group, blocks.size() - first);
    read_raw_blocks(std::span(blocks).subspan(first, n), id, threads, raw);
    for (size_t i = 0; i < n; ++i) {
      if (raw[i].error) std::rethrow_exception(raw[i].error);
      const uint64_t ctas = blocks[first + i].second;
      const std::string& where = raw[i].where;
      uint64_t seen = 0;
      decoder.decode(raw[i].bytes, table.insts, where, [&](CtaTrace& c) {
        ++seen;
        if (sink.cta) sink.cta(c);
      });
      if (seen != ctas) fail_input(where, "damaged archive: " + std::to_string(seen) + " CTAs, the kernel block says " + std::to_string(ctas));
      total += seen;
    }
  }
  if (total != kernel.ctas)
    fail_input(name_, "damaged archive: kernel " + std::to_string(id) + " has " + std::to_string(total) +
                          " CTAs, the index says " + std::to_string(kernel.ctas));
}

std::string ArchiveReader::block_name(uint64_t offset, uint32_t kernel) const {
  return name_ + ": " + kernel_label(kernel) + " at offset " + std::to_string(offset);
}

// Reads the CTA blocks at `blocks` (offset, CTAs) into raw[0, n) as the
// serial reader would one by one: from the file in order, stopping at the
// first that fails, then decompressed on `threads` threads, each failure
// kept with its block for the caller to throw when its turn comes.
void ArchiveReader::read_raw_blocks(std::span<const std::pair<uint64_t, uint64_t>> blocks, uint32_t kernel,
                                    unsigned threads, std::vector<RawBlock>& raw) {
  std::vector<StoredBlock> stored(blocks.size());
  size_t read = 0;
  for (auto& r : raw) r.error = nullptr;
  for (; read < blocks.size(); ++read) {
    try {
      stored[read] = read_stored(blocks[read].first, BlockKind::Ctas, kernel);
    } catch (...) {
      raw[read].error = std::current_exception();
      break;
    }
  }
  parallel_for(read, threads, [&](size_t i) {
    try {
      raw[i].bytes = decode_block_payload(stored[i].header, stored[i].stored, stored[i].where);
      raw[i].where = std::move(stored[i].where);
    } catch (...) {
      raw[i].error = std::current_exception();
    }
  });
}

std::string ArchiveReader::read_block(uint64_t offset, BlockKind kind, uint32_t kernel) {
  StoredBlock b = read_stored(offset, kind, kernel);
  return decode_block_payload(b.header, b.stored, b.where);
}

ArchiveReader::StoredBlock ArchiveReader::read_stored(uint64_t offset, BlockKind kind, uint32_t kernel) {
  std::string where = block_name(offset, kernel);
  if (offset < kHeaderSize || offset > size_ || size_ - offset < kBlockHeaderSize)
    fail_input(name_, "truncated archive (" + kernel_label(kernel) + " at offset " + std::to_string(offset) + ")");
  std::string head(kBlockHeaderSize, '\0');
  file_.clear();
  file_.seekg(static_cast<std::streamoff>(offset));
  file_.read(head.data(), kBlockHeaderSize);
  if (!file_) fail_io(name_, "read error");
  BlockHeader h = parse_block_header(head, where);
  if (h.kind != kind || h.kernel != kernel) fail_input(where, "damaged archive: unexpected block");
  if (h.stored_size > size_ - offset - kBlockHeaderSize)
    fail_input(name_, "truncated archive (" + kernel_label(kernel) + " at offset " + std::to_string(offset) + ")");
  std::string stored(h.stored_size, '\0');
  file_.read(stored.data(), h.stored_size);
  if (!file_) fail_io(name_, "read error");
  return {h, std::move(stored), std::move(where)};
}

// The trailer is missing: walk the blocks from the start to say where the file was cut.
void ArchiveReader::report_truncation() {
  uint64_t at = kHeaderSize;
  std::string head(kBlockHeaderSize, '\0');
  while (at < size_) {
    if (size_ - at < kBlockHeaderSize) fail_input(name_, "truncated archive (block at offset " + std::to_string(at) + ")");
    file_.clear();
    file_.seekg(static_cast<std::streamoff>(at));
    file_.read(head.data(), kBlockHeaderSize);
    BlockHeader h = parse_block_header(head, block_name(at, kNoKernel));
    uint64_t end = at + kBlockHeaderSize + h.stored_size;
    if (end > size_ || (h.kind == BlockKind::Index && end + kTrailerSize > size_))
      fail_input(name_, "truncated archive (" + kernel_label(h.kernel) + " at offset " + std::to_string(at) + ")");
    at = end;
  }
  fail_input(name_, "truncated archive (ends at offset " + std::to_string(at) + ", before its index)");
}

}  // namespace sasskit::archive
