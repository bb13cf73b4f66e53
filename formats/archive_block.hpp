// The archive's unit of storage (formats/ARCHIVE.md, "Blocks"): a fixed
// 18-byte header (kind, codec, kernel id, raw and stored sizes, CRC-32 of
// the raw bytes) followed by the compressed payload.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace sasskit::archive {

enum class Codec : uint8_t { None = 0, Zlib = 1, Xz = 2 };
enum class BlockKind : uint8_t { Ctas = 1, Kernel = 2, Index = 3 };

inline constexpr size_t kBlockHeaderSize = 18;
// A block's raw payload never exceeds this; a larger size in a header is damage.
inline constexpr uint32_t kMaxBlockRaw = 1u << 30;
inline constexpr uint32_t kNoKernel = 0xffffffff;

struct BlockHeader {
  BlockKind kind = BlockKind::Ctas;
  Codec codec = Codec::None;
  uint32_t kernel = kNoKernel;  // the kernel id, for messages
  uint32_t raw_size = 0;
  uint32_t stored_size = 0;
  uint32_t crc = 0;
};

// Header and payload, ready to write.
std::string encode_block(BlockKind kind, Codec codec, uint32_t kernel, std::string_view raw);

// Parses the kBlockHeaderSize bytes at the start of `bytes`; BadInput naming
// `where` when the kind, codec or sizes are impossible.
BlockHeader parse_block_header(std::string_view bytes, const std::string& where);

// Decompresses and checks the CRC. Output grows only as data arrives, so a
// forged raw size cannot make it allocate more than the payload yields.
std::string decode_block_payload(const BlockHeader& h, std::string_view stored,
                                 const std::string& where);

Codec parse_codec(const std::string& name);  // "none", "zlib" or "xz"; usage error otherwise

}  // namespace sasskit::archive
