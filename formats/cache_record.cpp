#include "formats/cache_record.hpp"

#include "formats/msgpack_map.hpp"
#include "formats/msgpack_pack.hpp"

namespace sasskit::stream {

namespace {

template <class T>
std::vector<T> column(const MapView& m, std::string_view key, size_t expected, std::string_view first) {
  auto v = m.get_or<std::vector<T>>(key, {});
  if (m.has(key) && v.size() != expected)
    fail_input(m.where(), "cache column '" + std::string(key) + "' has " + std::to_string(v.size()) +
                              " entries, '" + std::string(first) + "' has " + std::to_string(expected));
  return v;
}

}  // namespace

void RecordCodec<KernelCacheModel>::pack(Packer& pk, const KernelCacheModel& c) {
  pack_map_of(pk, [&](auto& map) {
    map.type(type);
    map("kernel", c.kernel_id);
    if (!c.gpu.empty()) map("gpu", c.gpu);
    map("l1_hit_rate", c.l1_hit_rate);
    map("l2_hit_rate", c.l2_hit_rate);
    map("gmem_requests", c.gmem_requests);
    if (c.ctas) map("ctas", *c.ctas);
    map("kernel_amat", c.kernel_amat);
    map("l1_sectors", c.l1_sectors);
    map("l1_hits", c.l1_hits);
    map("l2_sectors", c.l2_sectors);
    map("l2_hits", c.l2_hits);
    map("l2_bound_sectors", c.l2_bound_sectors);
    if (c.l2_bound_write_sectors) map("l2_bound_write_sectors", *c.l2_bound_write_sectors);
    map("dram_sectors", c.dram_sectors);
    map("dram_read_sectors", c.dram_read_sectors);
    map("dram_write_sectors", c.dram_write_sectors);
    map("pc", c.pc);
    map("amat", c.amat);
    map("pc_l1_hit_rate", c.pc_l1_hit_rate);
    map("pc_l2_hit_rate", c.pc_l2_hit_rate);
    map("pc_requests", c.pc_requests);
    map("pc_sectors", c.pc_sectors);
    map("pc_l2_sectors", c.pc_l2_sectors);
    map("pc_writeback_sectors", c.pc_writeback_sectors);
    map("sm", c.sm);
    map("sm_l1_hit_rate", c.sm_l1_hit_rate);
    map("sm_l2_hit_rate", c.sm_l2_hit_rate);
    map("space", c.space);
    map("space_requests", c.space_requests);
    map("space_sectors", c.space_sectors);
  });
}

namespace {
// A hit rate outside [0, 1] (or NaN) is refused, never clamped.
void check_rates(const Record& r, const std::string& field, const std::vector<double>& rates) {
  for (double v : rates)
    if (!(v >= 0 && v <= 1))
      fail_input(r.where(), "field '" + field + "' holds " + std::to_string(v) + ", not a rate in [0, 1]");
}
}  // namespace

KernelCacheModel RecordCodec<KernelCacheModel>::unpack(const Record& r) {
  MapView m(r.object(), r.where());
  KernelCacheModel c;
  c.kernel_id = m.get<uint32_t>("kernel");
  c.gpu = m.get_or<std::string>("gpu", "");
  c.l1_hit_rate = m.get<double>("l1_hit_rate");
  c.l2_hit_rate = m.get<double>("l2_hit_rate");
  c.gmem_requests = m.get<uint64_t>("gmem_requests");
  if (m.has("ctas")) c.ctas = m.get<uint64_t>("ctas");
  c.kernel_amat = m.get_or<double>("kernel_amat", 0);
  c.l1_sectors = m.get_or<uint64_t>("l1_sectors", 0);
  c.l1_hits = m.get_or<uint64_t>("l1_hits", 0);
  c.l2_sectors = m.get_or<uint64_t>("l2_sectors", 0);
  c.l2_hits = m.get_or<uint64_t>("l2_hits", 0);
  c.l2_bound_sectors = m.get_or<uint64_t>("l2_bound_sectors", 0);
  if (m.has("l2_bound_write_sectors")) {
    c.l2_bound_write_sectors = m.get<uint64_t>("l2_bound_write_sectors");
    if (*c.l2_bound_write_sectors > c.l2_bound_sectors)
      fail_input(r.where(), "field 'l2_bound_write_sectors' is more than 'l2_bound_sectors'");
  }
  c.dram_sectors = m.get_or<uint64_t>("dram_sectors", 0);
  c.dram_read_sectors = m.get_or<uint64_t>("dram_read_sectors", 0);
  c.dram_write_sectors = m.get_or<uint64_t>("dram_write_sectors", 0);
  // 2.2 on: the parts and their sum (before, only the sum).
  uint64_t dram_parts = 0;
  if (m.has("dram_read_sectors") &&
      (__builtin_add_overflow(c.dram_read_sectors, c.dram_write_sectors, &dram_parts) || dram_parts != c.dram_sectors))
    fail_input(r.where(), "field 'dram_sectors' is " + std::to_string(c.dram_sectors) + ", not 'dram_read_sectors' + "
                          "'dram_write_sectors' (" + std::to_string(c.dram_read_sectors) + " + " +
                          std::to_string(c.dram_write_sectors) + ")");
  c.pc = m.get<std::vector<uint64_t>>("pc");
  const size_t pcs = c.pc.size();
  c.amat = column<double>(m, "amat", pcs, "pc");
  if (!m.has("amat")) fail_input(r.where(), "field 'amat' is missing");
  c.pc_l1_hit_rate = column<double>(m, "pc_l1_hit_rate", pcs, "pc");
  c.pc_l2_hit_rate = column<double>(m, "pc_l2_hit_rate", pcs, "pc");
  c.pc_requests = column<uint64_t>(m, "pc_requests", pcs, "pc");
  c.pc_sectors = column<uint64_t>(m, "pc_sectors", pcs, "pc");
  c.pc_l2_sectors = column<uint64_t>(m, "pc_l2_sectors", pcs, "pc");
  c.pc_writeback_sectors = column<uint64_t>(m, "pc_writeback_sectors", pcs, "pc");
  if (c.pc_writeback_sectors.size() != c.pc_l2_sectors.size())
    fail_input(r.where(), "cache columns 'pc_writeback_sectors' and 'pc_l2_sectors' come together");
  for (size_t k = 0; k < c.pc_writeback_sectors.size(); ++k)
    if (c.pc_writeback_sectors[k] / kMaxWritebacksPerL2Sector > c.pc_l2_sectors[k])
      fail_input(r.where(), "PC " + std::to_string(c.pc[k]) + " writes back " +
                                std::to_string(c.pc_writeback_sectors[k]) + " sectors, more than its " +
                                std::to_string(c.pc_l2_sectors[k]) + " L2 sectors can evict");
  c.sm = m.get_or<std::vector<uint32_t>>("sm", {});
  c.sm_l1_hit_rate = column<double>(m, "sm_l1_hit_rate", c.sm.size(), "sm");
  c.sm_l2_hit_rate = column<double>(m, "sm_l2_hit_rate", c.sm.size(), "sm");
  c.space = m.get_or<std::vector<std::string>>("space", {});
  c.space_requests = column<uint64_t>(m, "space_requests", c.space.size(), "space");
  c.space_sectors = column<uint64_t>(m, "space_sectors", c.space.size(), "space");
  check_rates(r, "l1_hit_rate", {c.l1_hit_rate});
  check_rates(r, "l2_hit_rate", {c.l2_hit_rate});
  check_rates(r, "pc_l1_hit_rate", c.pc_l1_hit_rate);
  check_rates(r, "pc_l2_hit_rate", c.pc_l2_hit_rate);
  check_rates(r, "sm_l1_hit_rate", c.sm_l1_hit_rate);
  check_rates(r, "sm_l2_hit_rate", c.sm_l2_hit_rate);
  return c;
}

}  // namespace sasskit::stream
