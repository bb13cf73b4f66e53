// hostile-stream CASE [N]: writes to stdout a sasskit stream built to break
// a reader, for the hardening CLI cases (issue 18). Each CASE is one defect:
//   path-name      a kernel whose trace file name climbs out of the directory
//   newline-name   a kernel name with a line break (injects header lines)
//   non-utf8-name  a kernel name that is not UTF-8
//   cta-first      instruction table and CTA records before any kernel record
//   deep N         a record nested N arrays deep
//   map-key N      a record whose map key is a map whose key is a map ... N deep
//   warpless       a CTA with no warps
//   warps N        one CTA of N warps, all the same sequence
//   huge-grid      a kernel declaring 2^26 CTAs that holds one
//   cta-twice      a kernel of 2 CTAs whose CTA 0 comes twice
//   warp-twice     a CTA of two warps both numbered 0
//   cache-ctas N   a 64-CTA kernel sampled to 8 CTAs whose cache record
//                  says it models N CTAs
//   dram-sum       a cache record whose dram_sectors is not reads + writes
//   sample-ctas N  a 64-CTA kernel whose sample says kernel_ctas = N
//   fingerprint N  a header stage whose gpu_fingerprint is N 'g's
#include <iostream>
#include <sstream>
#include <string>

#include "formats/cache_record.hpp"
#include "formats/msgpack_pack.hpp"
#include "formats/records.hpp"
#include "formats/sample_record.hpp"

using namespace sasskit;

namespace {

KernelInfo kernel(std::string name = "hostile", std::string trace_file = "kernel-1.traceg") {
  KernelInfo k;
  k.id = 1;
  k.name = std::move(name);
  k.trace_file = std::move(trace_file);
  k.grid = {1, 1, 1};
  k.block = {32, 1, 1};
  k.nregs = 16;
  k.binary_version = 70;
  k.tracer_version = 4;
  return k;
}

InstTable table() {
  InstTable t;
  t.kernel_id = 1;
  t.insts = {{0x10, std::nullopt, "FFMA", {4}, {4, 2, 4}, 0, std::nullopt},
             {0x20, std::nullopt, "EXIT", {}, {}, 0, std::nullopt}};
  return t;
}

CtaTrace cta(uint64_t warps) {
  CtaTrace c;
  c.kernel_id = 1;
  c.cta = {0, 0, 0};  // the grid's only CTA
  for (uint64_t w = 0; w < warps; ++w) {
    WarpTrace t;
    t.warp_id = static_cast<uint32_t>(w);
    t.inst = {0, 0, 1};
    t.mask.assign(t.inst.size(), 0xffffffffu);
    c.warps.push_back(std::move(t));
  }
  return c;
}

// The bytes of a record {"t": "x", "v": V}, `value` packing V.
template <class PackValue>
std::string record_x(PackValue value) {
  msgpack::sbuffer buf;
  stream::Packer pk(buf);
  pk.pack_map(2);
  pk.pack(std::string("t"));
  pk.pack(std::string("x"));
  pk.pack(std::string("v"));
  value(pk);
  return std::string(buf.data(), buf.size());
}

// A record {"t": "x", "v": [[...[]...]]} with `depth` nested arrays, written
// as raw bytes: the stream writer would not build one.
void write_deep_record(std::ostream& out, uint64_t depth) {
  out << record_x([&](stream::Packer& pk) {
    for (uint64_t i = 1; i < depth; ++i) pk.pack_array(1);
    pk.pack_array(0);
  });
}

// A record {"t": "x", "v": {{{...}: 0}: 0}} whose map keys nest `depth`
// maps deep: valid msgpack, but a JSON key can only be a string.
void write_map_key_record(stream::Writer& w, uint64_t depth) {
  w.write(stream::Record(record_x([&](stream::Packer& pk) {
                           for (uint64_t i = 0; i < depth; ++i) pk.pack_map(1);
                           pk.pack(std::string("k"));
                           for (uint64_t i = 0; i < depth; ++i) pk.pack(0);
                         }),
                         "hostile"));
}

void write_kernel(stream::Writer& w, const KernelInfo& k, uint64_t warps) {
  w.write(k);
  w.write(table());
  w.write(cta(warps));
}

// A sample of the 64-CTA kernel `k`: its CTAs 0 to 7.
KernelSample sample_of(const KernelInfo& k, uint32_t kernel_ctas) {
  KernelSample s;
  s.kernel_id = k.id;
  s.selection = "max";
  s.sms = {0};
  for (uint32_t c = 0; c < 8; ++c) s.ctas.push_back(c);
  s.predicted_cycles = {100};
  s.kernel_insts = 64 * 3;
  s.sample_insts = 8 * 3;
  s.kernel_ctas = kernel_ctas;
  return s;
}

// A cache record of kernel 1 modelling `ctas` CTAs, its DRAM sectors split
// into reads and writes.
KernelCacheModel cache_record(uint64_t ctas, uint64_t dram_sectors) {
  KernelCacheModel c;
  c.kernel_id = 1;
  c.ctas = ctas;
  c.gmem_requests = 8;
  c.l1_sectors = c.l2_sectors = c.l2_bound_sectors = 32;
  c.dram_read_sectors = 24;
  c.dram_write_sectors = 8;
  c.dram_sectors = dram_sectors;
  return c;
}

KernelInfo kernel_of_64_ctas() {
  KernelInfo k = kernel();
  k.grid = {64, 1, 1};
  return k;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string which = argc > 1 ? argv[1] : "";
  const uint64_t n = argc > 2 ? std::stoull(argv[2]) : 0;
  std::ostringstream out;
  stream::Stage self{"hostile-stream", "0", {}};
  if (which == "fingerprint") self.gpu = "QV100", self.gpu_fingerprint = std::string(n, 'g');
  stream::Writer w(out, "<stdout>", stream::Header{}, self);
  if (which == "path-name") {
    write_kernel(w, kernel("hostile", "../escaped.traceg"), 1);
  } else if (which == "newline-name") {
    write_kernel(w, kernel("hostile\n-kernel id = 99"), 1);
  } else if (which == "non-utf8-name") {
    write_kernel(w, kernel("hostile\xff\xfe\xc3"), 1);
  } else if (which == "cta-first") {
    w.write(table());
    w.write(cta(1));
  } else if (which == "deep") {
    write_deep_record(out, n);
  } else if (which == "map-key") {
    write_map_key_record(w, n);
  } else if (which == "warpless") {
    write_kernel(w, kernel(), 0);
  } else if (which == "warps") {
    write_kernel(w, kernel(), n);
  } else if (which == "huge-grid") {
    KernelInfo k = kernel();
    k.grid = {1u << 26, 1, 1};
    write_kernel(w, k, 1);
  } else if (which == "cta-twice") {
    KernelInfo k = kernel();
    k.grid = {2, 1, 1};
    write_kernel(w, k, 1);
    w.write(cta(1));
  } else if (which == "warp-twice") {
    CtaTrace c = cta(2);
    c.warps[1].warp_id = 0;
    w.write(kernel());
    w.write(table());
    w.write(c);
  } else if (which == "cache-ctas" || which == "sample-ctas") {
    const KernelInfo k = kernel_of_64_ctas();
    w.write(k);
    w.write(sample_of(k, which == "sample-ctas" ? static_cast<uint32_t>(n) : 64));
    if (which == "cache-ctas") w.write(cache_record(n, 32));
  } else if (which == "dram-sum") {
    w.write(kernel_of_64_ctas());
    w.write(cache_record(64, 33));
  } else if (which == "fingerprint") {
    write_kernel(w, kernel(), 1);
  } else {
    std::cerr << "hostile-stream: unknown case '" << which << "'\n";
    return 2;
  }
  w.finish();
  std::cout << out.str();
  return std::cout.flush() ? 0 : 4;
}
