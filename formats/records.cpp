#include "formats/records.hpp"

#include <algorithm>
#include <array>

#include "formats/cta_payload.hpp"
#include "formats/field_table.hpp"
#include "formats/msgpack_raw.hpp"
#include "libcommon/diag.hpp"

namespace sasskit::stream {
namespace {

// The memcpy and kernel records' fields in their order (formats/STREAM.md).
// A new field is a member and a line here.
constexpr Field<Memcpy> kMemcpyFields[] = {
    {"address", &Memcpy::address},
    {"bytes", &Memcpy::bytes},
};

using K = KernelInfo;
constexpr Field<K> kKernelFields[] = {
    {"id", &K::id},
    {"name", &K::name},
    {"grid", &K::grid},
    {"block", &K::block},
    {"shmem", &K::shmem},
    {"nregs", &K::nregs},
    {"binary_version", &K::binary_version},
    {"stream_id", &K::stream_id},
    {"shmem_base", &K::shmem_base},
    {"local_base", &K::local_base},
    {"nvbit_version", &K::nvbit_version},
    {"tracer_version", &K::tracer_version},
    {"lineinfo", &K::lineinfo},
    {"trace_file", &K::trace_file},
    {"comments", &K::comments, Need::IfSet},
};

}  // namespace

void RecordCodec<Memcpy>::pack(Packer& pk, const Memcpy& m) {
  pack_map_of(pk, [&](auto& map) {
    map.type(type);
    pack_fields(map, m, kMemcpyFields);
  });
}

Memcpy RecordCodec<Memcpy>::unpack(const Record& r) {
  Memcpy c;
  read_fields(MapView(r.object(), r.where()), c, kMemcpyFields, "memcpy");
  return c;
}

void RecordCodec<KernelInfo>::pack(Packer& pk, const KernelInfo& k) {
  pack_map_of(pk, [&](auto& map) {
    map.type(type);
    pack_fields(map, k, kKernelFields);
  });
}

KernelInfo RecordCodec<KernelInfo>::unpack(const Record& r) {
  KernelInfo k;
  read_fields(MapView(r.object(), r.where()), k, kKernelFields, "kernel");
  return k;
}

namespace {

// An optional per-entry column: one entry each, nil where that entry has
// none (written only when some entry has the value).
template <class T, class Get>
auto optional_column_of(const std::vector<StaticInst>& insts, Get get) {
  return [&insts, get](Packer& pk) {
    pk.pack_array(static_cast<uint32_t>(insts.size()));
    for (const auto& i : insts) {
      const std::optional<T>& v = get(i);
      if (v) pk.pack(*v);
      else pk.pack_nil();
    }
  };
}

}  // namespace

void RecordCodec<InstTable>::pack(Packer& pk, const InstTable& t) {
  const auto& in = t.insts;
  const bool lines = std::any_of(in.begin(), in.end(), [](const StaticInst& i) { return i.line.has_value(); });
  const bool imms = std::any_of(in.begin(), in.end(), [](const StaticInst& i) { return i.imm.has_value(); });
  pack_map_of(pk, [&](auto& map) {
    map.type(type);
    map("kernel", t.kernel_id);
    map("first", t.first);
    map.with("pc", column_of(in, [](const StaticInst& i) { return i.pc; }));
    map.with("op", column_of(in, [](const StaticInst& i) -> const std::string& { return i.opcode; }));
    map.with("dst", column_of(in, [](const StaticInst& i) -> const std::vector<uint16_t>& { return i.dst; }));
    map.with("src", column_of(in, [](const StaticInst& i) -> const std::vector<uint16_t>& { return i.src; }));
    map.with("width", column_of(in, [](const StaticInst& i) { return i.mem_width; }));
    if (lines)
      map.with("line", optional_column_of<uint32_t>(
                           in, [](const StaticInst& i) -> const std::optional<uint32_t>& { return i.line; }));
    if (imms)
      map.with("imm", optional_column_of<std::string>(
                          in, [](const StaticInst& i) -> const std::optional<std::string>& { return i.imm; }));
  });
}

namespace {

// Format 1.x: one map per entry.
std::vector<StaticInst> unpack_inst_maps(const MapView& m, const std::string& where) {
  std::vector<StaticInst> out;
  for (const auto& o : m.array("insts")) {
    MapView im(o, where + " (insts)");
    StaticInst i;
    i.pc = im.get<uint64_t>("pc");
    i.opcode = im.get<std::string>("op");
    i.dst = im.get<std::vector<uint16_t>>("dst");
    i.src = im.get<std::vector<uint16_t>>("src");
    i.mem_width = im.get<uint32_t>("width");
    if (im.has("line")) i.line = im.get<uint32_t>("line");
    if (im.has("imm")) i.imm = im.get<std::string>("imm");
    out.push_back(std::move(i));
  }
  return out;
}

template <class T>
std::vector<std::optional<T>> optional_column(const MapView& m, std::string_view key, size_t n) {
  std::vector<std::optional<T>> out(n);
  if (!m.has(key)) return out;
  const auto values = m.array(key);
  if (values.size() != n) fail_input(m.where(), "insts column '" + std::string(key) + "' has the wrong length");
  for (size_t i = 0; i < n; ++i)
    if (!values[i].is_nil()) out[i] = m.convert<T>(values[i], key);
  return out;
}

// Format 2.0: one array per field, an entry per instruction.
std::vector<StaticInst> unpack_inst_columns(const MapView& m) {
  const auto pc = m.get<std::vector<uint64_t>>("pc");
  const auto op = m.get<std::vector<std::string>>("op");
  const auto dst = m.get<std::vector<std::vector<uint16_t>>>("dst");
  const auto src = m.get<std::vector<std::vector<uint16_t>>>("src");
  const auto width = m.get<std::vector<uint32_t>>("width");
  const size_t n = pc.size();
  if (op.size() != n || dst.size() != n || src.size() != n || width.size() != n)
    fail_input(m.where(), "insts columns differ in length");
  const auto line = optional_column<uint32_t>(m, "line", n);
  const auto imm = optional_column<std::string>(m, "imm", n);
  std::vector<StaticInst> out(n);
  for (size_t i = 0; i < n; ++i) out[i] = StaticInst{pc[i], line[i], op[i], dst[i], src[i], width[i], imm[i]};
  return out;
}

}  // namespace

InstTable RecordCodec<InstTable>::unpack(const Record& r) {
  MapView m(r.object(), r.where());
  // 1.x wrote one map per entry under "insts"; 2.0 writes columns.
  std::vector<StaticInst> insts = m.has("insts") ? unpack_inst_maps(m, r.where()) : unpack_inst_columns(m);
  return InstTable{m.get<uint32_t>("kernel"), m.get<uint32_t>("first"), std::move(insts)};
}

namespace {
void pack_warp(Packer& pk, const WarpTrace& w) {
  pack_map_of(pk, [&](auto& map) {
    map("id", w.warp_id);
    map("inst", w.inst);
    map("mask", w.mask);
    map.with("mode", column_of(w.addr_mode, [](uint8_t mode) { return static_cast<unsigned>(mode); }));
    map("addr", w.addrs);
    if (!w.addr_extra.empty()) map("extra", w.addr_extra);
  });
}
}  // namespace

void RecordCodec<CtaTrace>::pack(Packer& pk, const CtaTrace& c) {
  pack_map_of(pk, [&](auto& map) {
    map.type(type);
    map("kernel", c.kernel_id);
    map.with("cta", dim_of(c.cta));
    map.with("warps", [&](Packer& out) {
      out.pack_array(static_cast<uint32_t>(c.warps.size()));
      for (const auto& w : c.warps) pack_warp(out, w);
    });
  });
}

namespace {
// What a cta record holds besides its warps.
CtaTrace unpack_cta_place(const MapView& m) {
  CtaTrace c;
  c.kernel_id = m.get<uint32_t>("kernel");
  c.cta = read_dim(m, "cta");
  return c;
}

std::optional<std::string_view> find_payload(const MapView& m, const Record& r) {
  const msgpack::object* data = m.find("data");
  if (!data) return std::nullopt;
  if (data->type != msgpack::type::BIN) fail_input(r.where(), "field 'data' is not binary");
  return std::string_view(data->via.bin.ptr, data->via.bin.size);
}

// cta_payload's answer from the record's bytes, without building its
// msgpack object, where each field it checks has the form a writer gives
// it (then the object's checks pass too): true, with `payload` set. False
// for anything else, which the object's checks then name.
bool raw_cta_payload(const Record& r, std::optional<std::string_view>& payload) {
  try {
    static constexpr std::array<std::string_view, 3> kKeys = {"kernel", "cta", "data"};
    std::array<std::optional<std::string_view>, 3> fields;
    r.raw(kKeys, fields);
    const auto& [kernel, cta, data] = fields;
    const auto id = kernel ? raw_uint(*kernel) : std::nullopt;
    const auto dims = cta ? raw_uint3(*cta) : std::nullopt;
    const auto past_32_bits = [](uint64_t v) { return v > UINT32_MAX; };
    if (!id || past_32_bits(*id) || !dims || std::any_of(dims->begin(), dims->end(), past_32_bits)) return false;
    payload = data ? raw_bin(*data) : std::nullopt;
    return !data || payload;
  } catch (const Error&) {
    return false;
  }
}

}  // namespace

std::optional<std::string_view> cta_payload(const Record& r) {
  std::optional<std::string_view> payload;
  if (raw_cta_payload(r, payload)) return payload;
  MapView m(r.object(), r.where());
  unpack_cta_place(m);
  return find_payload(m, r);
}

CtaTrace RecordCodec<CtaTrace>::unpack(const Record& r) {
  CtaTrace c;
  unpack(r, c);
  return c;
}

void RecordCodec<CtaTrace>::unpack(const Record& r, CtaTrace& c) {
  MapView m(r.object(), r.where());
  const CtaTrace place = unpack_cta_place(m);
  c.kernel_id = place.kernel_id;
  c.cta = place.cta;
  if (const auto payload = find_payload(m, r)) {
    decode_warps(*payload, r.where(), c.warps);
    return;
  }
  c.warps.clear();
  for (const auto& o : m.array("warps")) {
    MapView wm(o, r.where());
    WarpTrace w;
    w.warp_id = wm.get<uint32_t>("id");
    w.inst = wm.get<std::vector<uint32_t>>("inst");
    w.mask = wm.get<std::vector<uint32_t>>("mask");
    for (auto mode : wm.get<std::vector<unsigned>>("mode")) {
      if (mode > 2) fail_input(r.where(), "address mode " + std::to_string(mode) + " is not 0, 1 or 2");
      w.addr_mode.push_back(static_cast<uint8_t>(mode));
    }
    w.addrs = wm.get<std::vector<uint64_t>>("addr");
    w.addr_extra = wm.get_or<std::vector<uint64_t>>("extra", {});
    c.warps.push_back(std::move(w));
  }
}

struct Writer::KernelTable {
  uint32_t kernel_id = 0;
  std::vector<StaticInst> insts;
};

void Writer::note_table(const InstTable& slice) {
  if (slice.first == 0) table_ = std::make_shared<KernelTable>(KernelTable{slice.kernel_id, {}});
  if (!table_ || table_->kernel_id != slice.kernel_id || table_->insts.size() != slice.first) return;
  table_->insts.insert(table_->insts.end(), slice.insts.begin(), slice.insts.end());
}

void Writer::write(const InstTable& slice) {
  note_table(slice);
  Packer pk(buf_);
  RecordCodec<InstTable>::pack(pk, slice);
  emit(RecordCodec<InstTable>::type);
}

namespace {
bool agrees_with(const CtaTrace& cta, const std::vector<StaticInst>& table) {
  try {
    validate_cta(cta, table, "");
  } catch (const Error&) {
    return false;
  }
  return true;
}
}  // namespace

void Writer::write(const CtaTrace& cta) {
  if (!payload_) payload_ = std::make_shared<PayloadEncoder>();
  pack_cta(cta, buf_, *payload_);
  emit(RecordCodec<CtaTrace>::type);
}

void Writer::write_packed_ctas(const msgpack::sbuffer& packed, uint64_t records) {
  if (records == 0) return;  // no "cta" count where there is no cta record
  counts_.add(record_type_name(RecordCodec<CtaTrace>::type), records);
  out_.write(packed.data(), static_cast<std::streamsize>(packed.size()));
}

void Writer::pack_cta(const CtaTrace& cta, msgpack::sbuffer& into, PayloadEncoder& encoder) const {
  Packer pk(into);
  if (table_ && table_->kernel_id == cta.kernel_id && agrees_with(cta, table_->insts)) {
    const std::string_view data = encoder.encode(cta.warps, table_->insts);
    pack_map_of(pk, [&](auto& map) {
      map.type(RecordCodec<CtaTrace>::type);
      map("kernel", cta.kernel_id);
      map.with("cta", dim_of(cta.cta));
      map.with("data", [&](Packer& out) {
        out.pack_bin(static_cast<uint32_t>(data.size()));
        out.pack_bin_body(data.data(), static_cast<uint32_t>(data.size()));
      });
    });
  } else {
    RecordCodec<CtaTrace>::pack(pk, cta);
  }
}

void validate_cta(const CtaTrace& cta, const std::vector<StaticInst>& table,
                  const std::string& where) {
  WarpIdSet ids;
  for (const auto& w : cta.warps) {
    // Built only for a message: most CTAs pass.
    auto at = [&] { return where + ": warp " + std::to_string(w.warp_id); };
    if (!ids.insert(w.warp_id)) fail_input(where, "warp " + std::to_string(w.warp_id) + " appears twice in the CTA");
    if (w.inst.size() != w.mask.size()) fail_input(at(), "inst and mask columns differ in length");
    size_t mem = 0, lanes = 0, extra = 0;
    for (size_t i = 0; i < w.inst.size(); ++i) {
      if (w.inst[i] >= table.size())
        fail_input(at(), "instruction index " + std::to_string(w.inst[i]) +
                             " is beyond the kernel's table of " + std::to_string(table.size()));
      if (table[w.inst[i]].mem_width > 0) {
        if (mem < w.addr_mode.size())
          extra += addr_extra_count(AddrMode(w.addr_mode[mem]), w.mask[i]);
        ++mem;
        lanes += active_lanes(w.mask[i]);
      }
    }
    if (w.addr_mode.size() != mem)
      fail_input(at(), "expected " + std::to_string(mem) + " address modes, found " +
                           std::to_string(w.addr_mode.size()));
    if (w.addr_extra.size() != extra)
      fail_input(at(), "expected " + std::to_string(extra) + " extra address values, found " +
                           std::to_string(w.addr_extra.size()));
    if (w.addrs.size() != lanes)
      fail_input(at(), "expected " + std::to_string(lanes) + " addresses, found " +
                           std::to_string(w.addrs.size()));
  }
}

}  // namespace sasskit::stream
