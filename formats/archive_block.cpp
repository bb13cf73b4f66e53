#include "formats/archive_block.hpp"

#include <lzma.h>
#include <zlib.h>

#include <algorithm>
#include <memory>

#include "formats/archive_bytes.hpp"
#include "libcommon/diag.hpp"

namespace sasskit::archive {
namespace {

constexpr size_t kChunk = 1 << 16;

uint32_t crc_of(std::string_view raw) {
  return static_cast<uint32_t>(
      ::crc32(0, reinterpret_cast<const Bytef*>(raw.data()), static_cast<uInt>(raw.size())));
}

// LZMA2 without the .xz container: both sides derive the dictionary size from
// the raw size, the smallest power of two that holds the block (4 KiB..64 MiB),
// so a small block never costs a large dictionary.
lzma_options_lzma lzma_options_for(uint32_t raw_size) {
  lzma_options_lzma opt;
  lzma_lzma_preset(&opt, 9);
  uint32_t dict = 4096;
  while (dict < raw_size && dict < (64u << 20)) dict <<= 1;
  opt.dict_size = dict;
  return opt;
}

std::string xz_compress(std::string_view raw) {
  lzma_options_lzma opt = lzma_options_for(static_cast<uint32_t>(raw.size()));
  lzma_filter filters[] = {{LZMA_FILTER_LZMA2, &opt}, {LZMA_VLI_UNKNOWN, nullptr}};
  // LZMA2 stores incompressible data in chunks with a few bytes of overhead each.
  std::string out(raw.size() + raw.size() / 64 + 1024, '\0');
  size_t written = 0;
  lzma_ret r = lzma_raw_buffer_encode(filters, nullptr, reinterpret_cast<const uint8_t*>(raw.data()),
                                      raw.size(), reinterpret_cast<uint8_t*>(out.data()), &written,
                                      out.size());
  if (r != LZMA_OK) throw std::runtime_error("lzma compression failed (" + std::to_string(r) + ")");
  out.resize(written);
  return out;
}

std::string zlib_compress(std::string_view raw) {
  uLongf size = compressBound(static_cast<uLong>(raw.size()));
  std::string out(size, '\0');
  int r = compress2(reinterpret_cast<Bytef*>(out.data()), &size,
                    reinterpret_cast<const Bytef*>(raw.data()), static_cast<uLong>(raw.size()), 9);
  if (r != Z_OK) throw std::runtime_error("zlib compression failed (" + std::to_string(r) + ")");
  out.resize(size);
  return out;
}

// The compressed stream must end exactly where the block does.
bool finished_exactly(size_t unread, const std::string& where) {
  if (unread != 0) fail_input(where, "damaged archive: data after the compressed stream");
  return true;
}

// Appends output in chunks until the decoder is done; `step` runs the decoder
// on the free space and returns whether the stream ended.
template <class Step>
std::string grow_output(uint32_t raw_size, const std::string& where, Step step) {
  std::string out;
  for (;;) {
    size_t used = out.size();
    if (used > raw_size) break;
    out.resize(used + std::min<size_t>(kChunk, raw_size - used + 1));
    size_t produced = 0;
    bool end = step(reinterpret_cast<uint8_t*>(out.data() + used), out.size() - used, produced);
    out.resize(used + produced);
    if (end) return out;
    if (produced == 0 && out.size() <= raw_size) fail_input(where, "damaged archive: compressed data ends early");
  }
  fail_input(where, "damaged archive: block is larger than its header says");
}

std::string xz_decompress(std::string_view stored, uint32_t raw_size, const std::string& where) {
  lzma_options_lzma opt = lzma_options_for(raw_size);
  lzma_filter filters[] = {{LZMA_FILTER_LZMA2, &opt}, {LZMA_VLI_UNKNOWN, nullptr}};
  lzma_stream s = LZMA_STREAM_INIT;
  if (lzma_raw_decoder(&s, filters) != LZMA_OK) throw std::runtime_error("lzma decoder init failed");
  std::unique_ptr<lzma_stream, void (*)(lzma_stream*)> guard(&s, lzma_end);
  s.next_in = reinterpret_cast<const uint8_t*>(stored.data());
  s.avail_in = stored.size();
  return grow_output(raw_size, where, [&](uint8_t* dst, size_t room, size_t& produced) {
    s.next_out = dst;
    s.avail_out = room;
    lzma_ret r = lzma_code(&s, LZMA_FINISH);
    produced = room - s.avail_out;
    if (r == LZMA_STREAM_END) return finished_exactly(s.avail_in, where);
    if (r != LZMA_OK && r != LZMA_BUF_ERROR)
      fail_input(where, "damaged archive: lzma data is corrupt");
    return false;
  });
}

std::string zlib_decompress(std::string_view stored, uint32_t raw_size, const std::string& where) {
  z_stream s{};
  if (inflateInit(&s) != Z_OK) throw std::runtime_error("zlib decoder init failed");
  std::unique_ptr<z_stream, int (*)(z_stream*)> guard(&s, inflateEnd);
  s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(stored.data()));
  s.avail_in = static_cast<uInt>(stored.size());
  return grow_output(raw_size, where, [&](uint8_t* dst, size_t room, size_t& produced) {
    s.next_out = dst;
    s.avail_out = static_cast<uInt>(room);
    int r = inflate(&s, Z_FINISH);
    produced = room - s.avail_out;
    if (r == Z_STREAM_END) return finished_exactly(s.avail_in, where);
    if (r != Z_OK && r != Z_BUF_ERROR) fail_input(where, "damaged archive: zlib data is corrupt");
    return false;
  });
}

}  // namespace

std::string encode_block(BlockKind kind, Codec codec, uint32_t kernel, std::string_view raw) {
  if (raw.size() > kMaxBlockRaw)
    fail("a block of " + std::to_string(raw.size()) + " bytes exceeds the archive's limit (one CTA too large)");
  std::string stored = codec == Codec::Xz     ? xz_compress(raw)
                       : codec == Codec::Zlib ? zlib_compress(raw)
                                              : std::string(raw);
  ByteSink h;
  h.u8(static_cast<uint8_t>(kind));
  h.u8(static_cast<uint8_t>(codec));
  h.fixed(kernel, 4);
  h.fixed(raw.size(), 4);
  h.fixed(stored.size(), 4);
  h.fixed(crc_of(raw), 4);
  h.raw(stored);
  return h.take();
}

BlockHeader parse_block_header(std::string_view bytes, const std::string& where) {
  ByteSource in(bytes.substr(0, kBlockHeaderSize), where);
  BlockHeader h;
  uint8_t kind = in.u8(), codec = in.u8();
  if (kind < 1 || kind > 3) in.damaged("unknown block kind " + std::to_string(kind));
  if (codec > 2) in.damaged("unknown codec " + std::to_string(codec));
  h.kind = static_cast<BlockKind>(kind);
  h.codec = static_cast<Codec>(codec);
  h.kernel = static_cast<uint32_t>(in.fixed(4));
  h.raw_size = static_cast<uint32_t>(in.fixed(4));
  h.stored_size = static_cast<uint32_t>(in.fixed(4));
  h.crc = static_cast<uint32_t>(in.fixed(4));
  if (h.raw_size > kMaxBlockRaw) in.damaged("block size " + std::to_string(h.raw_size) + " exceeds the limit");
  return h;
}

std::string decode_block_payload(const BlockHeader& h, std::string_view stored, const std::string& where) {
  std::string raw;
  switch (h.codec) {
    case Codec::None: raw = stored; break;
    case Codec::Zlib: raw = zlib_decompress(stored, h.raw_size, where); break;
    case Codec::Xz: raw = xz_decompress(stored, h.raw_size, where); break;
  }
  if (raw.size() != h.raw_size)
    fail_input(where, "damaged archive: block holds " + std::to_string(raw.size()) + " bytes, header says " +
                          std::to_string(h.raw_size));
  if (crc_of(raw) != h.crc) fail_input(where, "damaged archive: checksum mismatch");
  return raw;
}

Codec parse_codec(const std::string& name) {
  if (name == "xz") return Codec::Xz;
  if (name == "zlib") return Codec::Zlib;
  if (name == "none") return Codec::None;
  fail_usage("unknown codec '" + name + "' (expected xz, zlib or none)");
}

}  // namespace sasskit::archive
