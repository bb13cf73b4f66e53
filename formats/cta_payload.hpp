// The compact body of a stream cta record (formats/STREAM.md, cta, format
// 2.0): one binary payload per thread block, self-contained (no state
// shared between records, so a filter may drop any CTA) and decodable
// without the kernel's instruction table (it lists where the memory
// instructions are). Addresses use the archive's lane
// codec (formats/archive_lanes.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "formats/archive_bytes.hpp"
#include "formats/count_checks.hpp"
#include "formats/trace.hpp"
#include "libcommon/nonstall.hpp"

namespace sasskit::stream {

// The payload of `warps`, whose memory instructions `table` (the kernel's
// instruction table) names; the warps must pass validate_cta against it.
std::string encode_warps(const std::vector<WarpTrace>& warps, const std::vector<StaticInst>& table);

// The warps of a payload. BadInput at `where` ("damaged cta record: ...")
// for anything that is not exactly what encode_warps writes; no count
// allocates beyond what the payload's bytes can hold.
std::vector<WarpTrace> decode_warps(std::string_view payload, const std::string& where);
// The same into `warps`, whose columns keep their capacity: a reader that
// decodes CTA after CTA into one vector allocates only while it grows.
void decode_warps(std::string_view payload, const std::string& where, std::vector<WarpTrace>& warps);

// What the previous accesses of one static instruction in a warp say about
// its next one: loops usually step their addresses by a constant.
struct InstHistory {
  uint64_t last = 0, step = 0, stride = 0;
  uint32_t inst = 0;
  uint32_t generation = 0;  // the warp it belongs to (WarpModel)
  bool seen = false;
};

// Per-warp address prediction, the same when writing and reading: an
// open-addressing table of InstHistory by static instruction, reused from
// warp to warp (a new warp starts a new generation), so that decoding
// allocates nothing per warp.
class WarpModel {
 public:
  WarpModel() : slots_(64) {}
  // A new warp: every history is forgotten.
  void reset();
  // The history of `inst`, empty if it has none in this warp; valid until
  // the next call.
  InstHistory& history(uint32_t inst);
  uint64_t predict(const InstHistory& h) const { return h.seen ? h.last + h.step : previous_; }
  void update(InstHistory& h, uint64_t base);

 private:
  void grow();
  std::vector<InstHistory> slots_;  // size a power of two, at most half used
  size_t used_ = 0;
  uint32_t generation_ = 1;
  uint64_t previous_ = 0;
};

// encode_warps for a writer of CTA after CTA: its storage is kept from one
// payload to the next, so that it allocates only while a payload is larger
// than any before.
class PayloadEncoder {
 public:
  // The payload, valid until the next call.
  std::string_view encode(const std::vector<WarpTrace>& warps, const std::vector<StaticInst>& table);

 private:
  archive::ByteSink out_;
  std::vector<size_t> memory_;  // a warp's memory instructions
  WarpModel model_;
};

// Reads a payload warp by warp without building WarpTraces. decode_warps
// is built on it; a tool that needs only counts, or some of the addresses,
// reads with it what it needs and allocates nothing per warp (the columns
// are reused). Its checks are decode_warps's, with the same messages in
// the same order.
class PayloadReader {
 public:
  PayloadReader(std::string_view payload, const std::string& where);
  // Reads `payload` from its start instead, keeping the columns' capacity:
  // a reader of CTA after CTA allocates only while they grow.
  void restart(std::string_view payload);
  // Warps in the payload (bounded by its size).
  uint64_t warps() const { return warps_; }
  // Reads the next warp's instruction columns and memory positions; false
  // after the last warp (BadInput if data follows it). With `addresses`
  // false the warp's address section is read through at once, checked but
  // not decoded; with true, read_access() takes each of its memory
  // instructions in order before the next call. BadInput for a warp
  // number the payload gave before.
  bool next_warp(bool addresses);
  uint32_t warp_id() const { return warp_id_; }
  // Whether this warp's instruction and mask columns and memory positions
  // are, byte for byte, those of the warp read before it (by this reader,
  // in this payload or the one before): the same bytes read the same way,
  // so they were taken as read and what a reader derived from them holds.
  bool columns_repeat() const { return columns_repeat_; }
  // The warp's dynamic instructions: index into the kernel's table, and
  // active mask.
  std::span<const uint32_t> inst() const { return std::span(inst_).first(size_); }
  std::span<const uint32_t> mask() const { return std::span(mask_).first(size_); }
  // Indices into inst() of its memory instructions, in order.
  std::span<const uint32_t> memory() const { return std::span(memory_).first(memory_size_); }

  struct Access {
    uint8_t mode = 0;  // AddrMode
    unsigned extras = 0;
    std::array<uint64_t, 2> extra{};  // addr_extra_count(mode, mask) values
    // Whether the payload codes the active lanes as lanes[0] + stride * j
    // (consecutive lanes of a stride), which a reader may use unchecked.
    bool affine = false;
    uint64_t stride = 0;
  };
  // The next memory instruction of the warp; its active lanes' addresses
  // go to `lanes` (room for active_lanes() of its mask). With
  // `affine_first_only`, of lanes the payload codes as affine (Access::
  // affine) only the first: a reader that needs no more writes none.
  Access read_access(uint64_t* lanes, bool affine_first_only = false);

 private:
  bool skip_repeated_columns();
  void read_columns();
  Access read_mode_and_extras(uint32_t mask);
  void read_lanes(uint32_t inst, uint32_t mask, uint64_t* lanes, bool affine_first_only, Access& access);
  void skip_lanes(uint32_t mask);

  archive::ByteSource in_;
  uint64_t warps_ = 0, warps_read_ = 0;
  uint32_t warp_id_ = 0;
  size_t size_ = 0, memory_size_ = 0, next_access_ = 0;
  std::vector<uint32_t> inst_, mask_, memory_;  // capacity kept from warp to warp
  std::string columns_;  // the last warp's columns as read; empty if none
  bool columns_repeat_ = false;
  WarpModel model_;
  WarpIdSet warp_ids_;
};

// Whether the warp `in` holds agrees with `table` exactly: every index in
// range, and memory instructions where the table has them and nowhere
// else (then validate_cta passes the warp).
bool warp_agrees_with(const PayloadReader& in, const std::vector<StaticInst>& table);

// A warp's dynamic instructions by unit class, once it agrees with the
// kernel's table, for one CTA's warps read in turn: a warp that repeats the
// columns of the one before (most warps of a CTA) is neither checked nor
// counted again.
class WarpUnits {
 public:
  // Adds `in`'s warp's counts to `counts`; false, adding nothing, where the
  // warp disagrees with `table` (`unit_of`: per entry of it).
  bool add(const PayloadReader& in, const std::vector<StaticInst>& table, std::span<const UnitClass> unit_of,
           UnitCounts& counts);

 private:
  bool known_ = false;  // units_ holds the last warp's counts
  UnitCounts units_{};
};

// A CTA's dynamic warp instructions by unit class (`unit_of`: per entry of
// `table`) into `counts`, read through its compact payload once, the
// addresses checked but not decoded. False, having counted nothing, for a
// payload without warps or one that disagrees with `table`: a reader
// decodes those instead, which says what is wrong with them (validate_cta).
bool count_payload_units(std::string_view payload, const std::string& where, const std::vector<StaticInst>& table,
                         std::span<const UnitClass> unit_of, UnitCounts& counts);

}  // namespace sasskit::stream
