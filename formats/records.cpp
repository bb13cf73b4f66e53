#include "formats/records.hpp"

#include <algorithm>

#include "formats/cta_payload.hpp"
#include "formats/msgpack_map.hpp"
#include "formats/msgpack_pack.hpp"

namespace sasskit::stream {
namespace {

void pack_dim(Packer& pk, const Dim3& d) {
  pk.pack_array(3);
  pk.pack(d.x);
  pk.pack(d.y);
  pk.pack(d.z);
}

Dim3 unpack_dim(const MapView& m, std::string_view field) {
  auto v = m.get<std::vector<uint32_t>>(field);
  if (v.size() != 3) fail_input(m.where(), "field '" + std::string(field) + "' needs 3 values");
  return Dim3{v[0], v[1], v[2]};
}

}  // namespace

void RecordCodec<Memcpy>::pack(Packer& pk, const Memcpy& m) {
  pk.pack_map(3);
  pack_type(pk, type);
  pack_key(pk, "address");
  pk.pack(m.address);
  pack_key(pk, "bytes");
  pk.pack(m.bytes);
}

Memcpy RecordCodec<Memcpy>::unpack(const Record& r) {
  MapView m(r.object(), r.where());
  return Memcpy{m.get<uint64_t>("address"), m.get<uint64_t>("bytes")};
}

void RecordCodec<KernelInfo>::pack(Packer& pk, const KernelInfo& k) {
  pk.pack_map(15 + (k.comments.empty() ? 0 : 1));
  pack_type(pk, type);
  pack_key(pk, "id"); pk.pack(k.id);
  pack_key(pk, "name"); pk.pack(k.name);
  pack_key(pk, "grid"); pack_dim(pk, k.grid);
  pack_key(pk, "block"); pack_dim(pk, k.block);
  pack_key(pk, "shmem"); pk.pack(k.shmem);
  pack_key(pk, "nregs"); pk.pack(k.nregs);
  pack_key(pk, "binary_version"); pk.pack(k.binary_version);
  pack_key(pk, "stream_id"); pk.pack(k.stream_id);
  pack_key(pk, "shmem_base"); pk.pack(k.shmem_base);
  pack_key(pk, "local_base"); pk.pack(k.local_base);
  pack_key(pk, "nvbit_version"); pk.pack(k.nvbit_version);
  pack_key(pk, "tracer_version"); pk.pack(k.tracer_version);
  pack_key(pk, "lineinfo"); pk.pack(k.lineinfo);
  pack_key(pk, "trace_file"); pk.pack(k.trace_file);
  if (!k.comments.empty()) { pack_key(pk, "comments"); pk.pack(k.comments); }
}

KernelInfo RecordCodec<KernelInfo>::unpack(const Record& r) {
  MapView m(r.object(), r.where());
  KernelInfo k;
  k.id = m.get<uint32_t>("id");
  k.name = m.get<std::string>("name");
  k.grid = unpack_dim(m, "grid");
  k.block = unpack_dim(m, "block");
  k.shmem = m.get<uint32_t>("shmem");
  k.nregs = m.get<uint32_t>("nregs");
  k.binary_version = m.get<uint32_t>("binary_version");
  k.stream_id = m.get<uint64_t>("stream_id");
  k.shmem_base = m.get<uint64_t>("shmem_base");
  k.local_base = m.get<uint64_t>("local_base");
  k.nvbit_version = m.get<std::string>("nvbit_version");
  k.tracer_version = m.get<uint32_t>("tracer_version");
  k.lineinfo = m.get<bool>("lineinfo");
  k.trace_file = m.get<std::string>("trace_file");
  k.comments = m.get_or<std::vector<std::string>>("comments", {});
  return k;
}

namespace {

// An optional per-entry column: absent when no entry has the value, else
// one entry each, nil where that entry has none.
template <class T, class Get>
void pack_optional_column(Packer& pk, std::string_view key, const std::vector<StaticInst>& insts, Get get) {
  if (std::none_of(insts.begin(), insts.end(), [&](const StaticInst& i) { return get(i).has_value(); })) return;
  pack_key(pk, key);
  pk.pack_array(static_cast<uint32_t>(insts.size()));
  for (const auto& i : insts) {
    const std::optional<T>& v = get(i);
    if (v) pk.pack(*v);
    else pk.pack_nil();
  }
}

template <class Get>
void pack_column(Packer& pk, std::string_view key, const std::vector<StaticInst>& insts, Get get) {
  pack_key(pk, key);
  pk.pack_array(static_cast<uint32_t>(insts.size()));
  for (const auto& i : insts) pk.pack(get(i));
}

}  // namespace

void RecordCodec<InstTable>::pack(Packer& pk, const InstTable& t) {
  const auto& in = t.insts;
  const bool lines = std::any_of(in.begin(), in.end(), [](const StaticInst& i) { return i.line.has_value(); });
  const bool imms = std::any_of(in.begin(), in.end(), [](const StaticInst& i) { return i.imm.has_value(); });
  pk.pack_map(8 + (lines ? 1 : 0) + (imms ? 1 : 0));
  pack_type(pk, type);
  pack_key(pk, "kernel"); pk.pack(t.kernel_id);
  pack_key(pk, "first"); pk.pack(t.first);
  pack_column(pk, "pc", in, [](const StaticInst& i) { return i.pc; });
  pack_column(pk, "op", in, [](const StaticInst& i) -> const std::string& { return i.opcode; });
  pack_column(pk, "dst", in, [](const StaticInst& i) -> const std::vector<uint16_t>& { return i.dst; });
  pack_column(pk, "src", in, [](const StaticInst& i) -> const std::vector<uint16_t>& { return i.src; });
  pack_column(pk, "width", in, [](const StaticInst& i) { return i.mem_width; });
  pack_optional_column<uint32_t>(pk, "line", in, [](const StaticInst& i) -> const std::optional<uint32_t>& { return i.line; });
  pack_optional_column<std::string>(pk, "imm", in, [](const StaticInst& i) -> const std::optional<std::string>& { return i.imm; });
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

void RecordCodec<CtaTrace>::pack(Packer& pk, const CtaTrace& c) {
  pk.pack_map(4);
  pack_type(pk, type);
  pack_key(pk, "kernel"); pk.pack(c.kernel_id);
  pack_key(pk, "cta"); pack_dim(pk, c.cta);
  pack_key(pk, "warps");
  pk.pack_array(static_cast<uint32_t>(c.warps.size()));
  for (const auto& w : c.warps) {
    pk.pack_map(5 + (w.addr_extra.empty() ? 0 : 1));
    pack_key(pk, "id"); pk.pack(w.warp_id);
    pack_key(pk, "inst"); pk.pack(w.inst);
    pack_key(pk, "mask"); pk.pack(w.mask);
    pack_key(pk, "mode"); pk.pack_array(static_cast<uint32_t>(w.addr_mode.size()));
    for (uint8_t mode : w.addr_mode) pk.pack(static_cast<unsigned>(mode));
    pack_key(pk, "addr"); pk.pack(w.addrs);
    if (!w.addr_extra.empty()) { pack_key(pk, "extra"); pk.pack(w.addr_extra); }
  }
}

namespace {
// What a cta record holds besides its warps.
CtaTrace unpack_cta_place(const MapView& m) {
  CtaTrace c;
  c.kernel_id = m.get<uint32_t>("kernel");
  c.cta = unpack_dim(m, "cta");
  return c;
}

std::optional<std::string_view> find_payload(const MapView& m, const Record& r) {
  const msgpack::object* data = m.find("data");
  if (!data) return std::nullopt;
  if (data->type != msgpack::type::BIN) fail_input(r.where(), "field 'data' is not binary");
  return std::string_view(data->via.bin.ptr, data->via.bin.size);
}
}  // namespace

std::optional<std::string_view> cta_payload(const Record& r) {
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
  Packer pk(buf_);
  if (table_ && table_->kernel_id == cta.kernel_id && agrees_with(cta, table_->insts)) {
    if (!payload_) payload_ = std::make_shared<PayloadEncoder>();
    const std::string_view data = payload_->encode(cta.warps, table_->insts);
    pk.pack_map(4);
    pack_type(pk, "cta");
    pack_key(pk, "kernel"); pk.pack(cta.kernel_id);
    pack_key(pk, "cta"); pack_dim(pk, cta.cta);
    pack_key(pk, "data");
    pk.pack_bin(static_cast<uint32_t>(data.size()));
    pk.pack_bin_body(data.data(), static_cast<uint32_t>(data.size()));
  } else {
    RecordCodec<CtaTrace>::pack(pk, cta);
  }
  emit(RecordCodec<CtaTrace>::type);
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
