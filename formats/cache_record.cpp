#include "formats/cache_record.hpp"

#include "formats/field_table.hpp"

namespace sasskit::stream {

namespace {

using C = KernelCacheModel;

// The record's fields in its order (formats/STREAM.md, cache). A new field
// is a member and a line here. Columns name the column whose rows they
// follow; only `kernel`, the two rates, `gmem_requests`, `pc` and `amat`
// are needed.
constexpr Field<C> kFields[] = {
    {"kernel", &C::kernel_id},
    {"gpu", &C::gpu, Need::IfSet},
    {"l1_hit_rate", &C::l1_hit_rate, Need::Required, Check::Rate},
    {"l2_hit_rate", &C::l2_hit_rate, Need::Required, Check::Rate},
    {"gmem_requests", &C::gmem_requests},
    {"ctas", &C::ctas, Need::IfSet},
    {"kernel_amat", &C::kernel_amat, Need::Since},
    {"l1_sectors", &C::l1_sectors, Need::Since},
    {"l1_hits", &C::l1_hits, Need::Since},
    {"l2_sectors", &C::l2_sectors, Need::Since},
    {"l2_hits", &C::l2_hits, Need::Since},
    {"l2_bound_sectors", &C::l2_bound_sectors, Need::Since},
    {"l2_bound_write_sectors", &C::l2_bound_write_sectors, Need::IfSet},
    {"dram_sectors", &C::dram_sectors, Need::Since},
    {"dram_read_sectors", &C::dram_read_sectors, Need::Since},
    {"dram_write_sectors", &C::dram_write_sectors, Need::Since},
    {"pc", &C::pc},
    {"amat", &C::amat, Need::Required, Check::None, "pc"},
    {"pc_l1_hit_rate", &C::pc_l1_hit_rate, Need::Since, Check::Rate, "pc"},
    {"pc_l2_hit_rate", &C::pc_l2_hit_rate, Need::Since, Check::Rate, "pc"},
    {"pc_requests", &C::pc_requests, Need::Since, Check::None, "pc"},
    {"pc_sectors", &C::pc_sectors, Need::Since, Check::None, "pc"},
    {"pc_l2_sectors", &C::pc_l2_sectors, Need::Since, Check::None, "pc"},
    {"pc_writeback_sectors", &C::pc_writeback_sectors, Need::Since, Check::None, "pc"},
    {"sm", &C::sm, Need::Since},
    {"sm_l1_hit_rate", &C::sm_l1_hit_rate, Need::Since, Check::Rate, "sm"},
    {"sm_l2_hit_rate", &C::sm_l2_hit_rate, Need::Since, Check::Rate, "sm"},
    {"space", &C::space, Need::Since},
    {"space_requests", &C::space_requests, Need::Since, Check::None, "space"},
    {"space_sectors", &C::space_sectors, Need::Since, Check::None, "space"},
};

// What the table cannot say: sums and bounds between fields.
void check_totals(const C& c, const MapView& m, const std::string& where) {
  if (c.l2_bound_write_sectors && *c.l2_bound_write_sectors > c.l2_bound_sectors)
    fail_input(where, "field 'l2_bound_write_sectors' is more than 'l2_bound_sectors'");
  // 2.2 on: the parts and their sum (before, only the sum).
  uint64_t dram_parts = 0;
  if (m.has("dram_read_sectors") &&
      (__builtin_add_overflow(c.dram_read_sectors, c.dram_write_sectors, &dram_parts) || dram_parts != c.dram_sectors))
    fail_input(where, "field 'dram_sectors' is " + std::to_string(c.dram_sectors) + ", not 'dram_read_sectors' + "
                      "'dram_write_sectors' (" + std::to_string(c.dram_read_sectors) + " + " +
                      std::to_string(c.dram_write_sectors) + ")");
  if (c.pc_writeback_sectors.size() != c.pc_l2_sectors.size())
    fail_input(where, "cache columns 'pc_writeback_sectors' and 'pc_l2_sectors' come together");
  for (size_t k = 0; k < c.pc_writeback_sectors.size(); ++k)
    if (c.pc_writeback_sectors[k] / kMaxWritebacksPerL2Sector > c.pc_l2_sectors[k])
      fail_input(where, "PC " + std::to_string(c.pc[k]) + " writes back " + std::to_string(c.pc_writeback_sectors[k]) +
                            " sectors, more than its " + std::to_string(c.pc_l2_sectors[k]) + " L2 sectors can evict");
}

}  // namespace

void RecordCodec<KernelCacheModel>::pack(Packer& pk, const KernelCacheModel& c) {
  pack_map_of(pk, [&](auto& map) {
    map.type(type);
    pack_fields(map, c, kFields);
  });
}

KernelCacheModel RecordCodec<KernelCacheModel>::unpack(const Record& r) {
  MapView m(r.object(), r.where());
  KernelCacheModel c;
  read_fields(m, c, kFields, "cache");
  check_totals(c, m, r.where());
  check_fields(r.where(), c, kFields);
  return c;
}

}  // namespace sasskit::stream
