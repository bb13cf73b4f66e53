// The typed records of stream format v1 (formats/STREAM.md) and their codecs.
#pragma once

#include "formats/stream.hpp"
#include "formats/trace.hpp"

namespace sasskit {

// A cumulative slice of a kernel's static instruction table: entries
// first .. first + insts.size() - 1. A cta record only refers to entries
// already announced by earlier insts records of its kernel.
struct InstTable {
  uint32_t kernel_id = 0;
  uint32_t first = 0;
  std::vector<StaticInst> insts;
  bool operator==(const InstTable&) const = default;
};

}  // namespace sasskit

namespace sasskit::stream {

template <>
struct RecordCodec<Memcpy> {
  static constexpr RecordType type = RecordType::Memcpy;
  static void pack(Packer& pk, const Memcpy& m);
  static Memcpy unpack(const Record& r);
};

template <>
struct RecordCodec<KernelInfo> {
  static constexpr RecordType type = RecordType::Kernel;
  static void pack(Packer& pk, const KernelInfo& k);
  static KernelInfo unpack(const Record& r);
};

template <>
struct RecordCodec<InstTable> {
  static constexpr RecordType type = RecordType::Insts;
  static void pack(Packer& pk, const InstTable& t);
  static InstTable unpack(const Record& r);
};

template <>
struct RecordCodec<CtaTrace> {
  static constexpr RecordType type = RecordType::Cta;
  static void pack(Packer& pk, const CtaTrace& c);
  static CtaTrace unpack(const Record& r);
  // The same into `c`, reusing the capacity of its warps' columns.
  static void unpack(const Record& r, CtaTrace& c);
};

// The compact payload (formats/cta_payload.hpp) of a cta record, checked
// as far as unpack checks the record before decoding it; nullopt for a CTA
// written in full. The view lives as long as `r`.
std::optional<std::string_view> cta_payload(const Record& r);

// Checks a cta record against its kernel's instruction table: indices in
// range, column lengths consistent (one address per active lane of each
// memory instruction). BadInput naming the warp otherwise.
void validate_cta(const CtaTrace& cta, const std::vector<StaticInst>& table,
                  const std::string& where);

}  // namespace sasskit::stream
