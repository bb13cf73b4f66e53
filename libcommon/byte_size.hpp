// A byte count as text, the one spelling every tool reads (GPU model keys,
// rd-cache's --sweep): digits, then optionally spaces and a binary suffix,
// any case: B; K, KB, KiB; M, MB, MiB; G, GB, GiB (KB and K are 1024, as
// KiB). sasskit-config(5) documents it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sasskit {

// What a size may be written as, for messages.
inline constexpr const char* kByteSizeForm = "a size (bytes, or with a KiB/MiB/GiB suffix)";

enum class ByteSizeError { NotASize, TooLarge };

struct ParsedByteSize {
  uint64_t bytes = 0;
  std::optional<ByteSizeError> error;
};

// `text` in bytes; TooLarge at 2^64 bytes or more.
ParsedByteSize parse_byte_size(std::string_view text);

// `bytes` as dump_config writes it: MiB or KiB where it is a whole number of
// them, else plain bytes.
std::string format_byte_size(uint64_t bytes);

}  // namespace sasskit
