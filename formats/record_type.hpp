// The stream's record types (formats/STREAM.md) as typed constants: one name
// table, and a record's "t" decoded once when it is read (Record::type()).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace sasskit::stream {

// Other: a type no tool knows, passed through byte for byte under its own name.
enum class RecordType : uint8_t { Memcpy, Kernel, Insts, Cta, Sched, Sample, Cache, Plan, Stats, End, Other };

// The "t" of each known type, in RecordType's order. A new record type is a
// constant above and its name here.
inline constexpr std::array<std::string_view, 10> kRecordTypeNames = {
    "memcpy", "kernel", "insts", "cta", "sched", "sample", "cache", "plan", "stats", "end"};
static_assert(kRecordTypeNames.size() == static_cast<size_t>(RecordType::Other));

// The type a record's "t" names; Other for a name not in the table.
constexpr RecordType record_type(std::string_view name) {
  for (size_t i = 0; i < kRecordTypeNames.size(); ++i)
    if (kRecordTypeNames[i] == name) return static_cast<RecordType>(i);
  return RecordType::Other;
}

// The name of a known type (an Other record keeps its own: Record::type_name()).
constexpr std::string_view record_type_name(RecordType t) { return kRecordTypeNames.at(static_cast<size_t>(t)); }

}  // namespace sasskit::stream
