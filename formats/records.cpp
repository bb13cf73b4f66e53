#include "formats/records.hpp"

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

void RecordCodec<InstTable>::pack(Packer& pk, const InstTable& t) {
  pk.pack_map(4);
  pack_type(pk, type);
  pack_key(pk, "kernel"); pk.pack(t.kernel_id);
  pack_key(pk, "first"); pk.pack(t.first);
  pack_key(pk, "insts");
  pk.pack_array(static_cast<uint32_t>(t.insts.size()));
  for (const auto& i : t.insts) {
    uint32_t n = 5 + (i.line ? 1 : 0) + (i.imm ? 1 : 0);
    pk.pack_map(n);
    pack_key(pk, "pc"); pk.pack(i.pc);
    pack_key(pk, "op"); pk.pack(i.opcode);
    pack_key(pk, "dst"); pk.pack(i.dst);
    pack_key(pk, "src"); pk.pack(i.src);
    pack_key(pk, "width"); pk.pack(i.mem_width);
    if (i.line) { pack_key(pk, "line"); pk.pack(*i.line); }
    if (i.imm) { pack_key(pk, "imm"); pk.pack(*i.imm); }
  }
}

InstTable RecordCodec<InstTable>::unpack(const Record& r) {
  MapView m(r.object(), r.where());
  InstTable t;
  t.kernel_id = m.get<uint32_t>("kernel");
  t.first = m.get<uint32_t>("first");
  for (const auto& o : m.array("insts")) {
    MapView im(o, r.where() + " (insts)");
    StaticInst i;
    i.pc = im.get<uint64_t>("pc");
    i.opcode = im.get<std::string>("op");
    i.dst = im.get<std::vector<uint16_t>>("dst");
    i.src = im.get<std::vector<uint16_t>>("src");
    i.mem_width = im.get<uint32_t>("width");
    if (im.has("line")) i.line = im.get<uint32_t>("line");
    if (im.has("imm")) i.imm = im.get<std::string>("imm");
    t.insts.push_back(std::move(i));
  }
  return t;
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

CtaTrace RecordCodec<CtaTrace>::unpack(const Record& r) {
  MapView m(r.object(), r.where());
  CtaTrace c;
  c.kernel_id = m.get<uint32_t>("kernel");
  c.cta = unpack_dim(m, "cta");
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
  return c;
}

void validate_cta(const CtaTrace& cta, const std::vector<StaticInst>& table,
                  const std::string& where) {
  for (const auto& w : cta.warps) {
    const std::string at = where + ": warp " + std::to_string(w.warp_id);
    if (w.inst.size() != w.mask.size()) fail_input(at, "inst and mask columns differ in length");
    size_t mem = 0, lanes = 0, extra = 0;
    for (size_t i = 0; i < w.inst.size(); ++i) {
      if (w.inst[i] >= table.size())
        fail_input(at, "instruction index " + std::to_string(w.inst[i]) +
                           " is beyond the kernel's table of " + std::to_string(table.size()));
      if (table[w.inst[i]].mem_width > 0) {
        if (mem < w.addr_mode.size())
          extra += addr_extra_count(AddrMode(w.addr_mode[mem]), w.mask[i]);
        ++mem;
        lanes += active_lanes(w.mask[i]);
      }
    }
    if (w.addr_mode.size() != mem)
      fail_input(at, "expected " + std::to_string(mem) + " address modes, found " +
                         std::to_string(w.addr_mode.size()));
    if (w.addr_extra.size() != extra)
      fail_input(at, "expected " + std::to_string(extra) + " extra address values, found " +
                         std::to_string(w.addr_extra.size()));
    if (w.addrs.size() != lanes)
      fail_input(at, "expected " + std::to_string(lanes) + " addresses, found " +
                         std::to_string(w.addrs.size()));
  }
}

}  // namespace sasskit::stream
