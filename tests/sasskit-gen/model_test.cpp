// The generator's model, checked without the text writer: structure,
// masks, address patterns, opcode spellings and determinism per seed.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "dialect.hpp"
#include "formats/records.hpp"
#include "generator.hpp"
#include "kernel_parts.hpp"
#include "libcommon/diag.hpp"
#include "program.hpp"

using namespace sasskit;
using namespace sasskit::gen;

namespace {

struct Launch {
  KernelInfo info;
  std::vector<StaticInst> table;
  std::vector<CtaTrace> ctas;
};

struct Trace {
  std::vector<Memcpy> copies;
  std::vector<Launch> launches;
};

Trace run(const GenOptions& opt) {
  Trace t;
  generate(opt,
           TraceSink{[&](const Memcpy& m) { t.copies.push_back(m); },
                     [&](const KernelInfo& k, const InstTable& table) {
                       EXPECT_EQ(table.first, 0u);
                       t.launches.push_back({k, table.insts, {}});
                     },
                     [&](const CtaTrace& c) { t.launches.back().ctas.push_back(c); },
                     [&](const KernelInfo& k) { EXPECT_EQ(k.id, t.launches.back().info.id); }});
  return t;
}

GenOptions options(std::vector<KernelKind> kinds, uint64_t size, uint32_t version = 70) {
  GenOptions opt;
  opt.kernels = std::move(kinds);
  opt.params.size = size;
  opt.binary_version = version;
  return opt;
}

// Accel-Sim's rule for a memory width: the number in the opcode / 8, else 4.
uint32_t width_from_opcode(const std::string& opcode) {
  size_t pos = 0;
  while ((pos = opcode.find('.', pos)) != std::string::npos) {
    ++pos;
    const size_t end = opcode.find('.', pos);
    const std::string part = opcode.substr(pos, end - pos);
    if (!part.empty() && std::all_of(part.begin(), part.end(), ::isdigit))
      return std::stoi(part) / 8;
  }
  return 4;
}

bool is_memory(const std::string& op) {
  return op.rfind("LDG", 0) == 0 || op.rfind("STG", 0) == 0 || op.rfind("LDS", 0) == 0 ||
         op.rfind("STS", 0) == 0;
}

// Calls f(inst, mask, addresses) for each dynamic instruction of a warp.
template <class F>
void each_inst(const WarpTrace& w, const std::vector<StaticInst>& table, F f) {
  size_t a = 0;
  for (size_t i = 0; i < w.inst.size(); ++i) {
    const StaticInst& s = table[w.inst[i]];
    const size_t n = s.mem_width ? active_lanes(w.mask[i]) : 0;
    f(s, w.mask[i], std::vector<uint64_t>(w.addrs.begin() + a, w.addrs.begin() + a + n));
    a += n;
  }
}

uint64_t count_opcode(const Launch& l, const CtaTrace& c, const std::string& prefix) {
  uint64_t n = 0;
  for (const auto& w : c.warps)
    each_inst(w, l.table, [&](const StaticInst& s, uint32_t, const auto&) {
      n += s.opcode.rfind(prefix, 0) == 0;
    });
  return n;
}

const std::vector<KernelKind> kAllKinds{KernelKind::VecAdd, KernelKind::Gemm,   KernelKind::Stencil,
                                        KernelKind::Reduce, KernelKind::Gather, KernelKind::Tensor};

}  // namespace

TEST(TracerAddrMode, FollowsTheAccelSimTracerRule) {
  const std::vector<uint64_t> strided{0x1000, 0x1004, 0x1008, 0x100c};
  EXPECT_EQ(tracer_addr_mode(0xf, strided), AddrMode::BaseStride);
  EXPECT_EQ(tracer_addr_mode(0xf0, strided), AddrMode::BaseStride);            // any contiguous run
  EXPECT_EQ(tracer_addr_mode(0x17, strided), AddrMode::BaseDelta);             // a gap in the mask
  EXPECT_EQ(tracer_addr_mode(0x1, {strided.data(), 1}), AddrMode::BaseDelta);  // one lane
  EXPECT_EQ(tracer_addr_mode(0x3, std::vector<uint64_t>{8, 8}), AddrMode::BaseStride);  // broadcast
  EXPECT_EQ(tracer_addr_mode(0x7, std::vector<uint64_t>{0, 4, 12}), AddrMode::BaseDelta);
  EXPECT_EQ(tracer_addr_mode(0x3, std::vector<uint64_t>{0, 1ull << 32}), AddrMode::BaseDelta);
  EXPECT_EQ(tracer_addr_mode(0x3, std::vector<uint64_t>{0x100, 0x80}), AddrMode::BaseStride);
}

TEST(Dialect, SpellsOpcodesAndPcsPerGeneration) {
  const Dialect pascal = Dialect::for_version(61), volta = Dialect::for_version(70),
                ampere = Dialect::for_version(80);
  std::vector<uint64_t> pcs{pascal.first_pc()};
  for (int i = 0; i < 4; ++i) pcs.push_back(pascal.pc_after(pcs.back()));
  EXPECT_EQ(pcs, (std::vector<uint64_t>{0x8, 0x10, 0x18, 0x28, 0x30}));
  EXPECT_EQ(volta.pc_after(volta.first_pc()), 0x10u);
  EXPECT_EQ(volta.global_load(16), "LDG.E.128.SYS");
  EXPECT_EQ(ampere.global_load(4), "LDG.E");
  EXPECT_EQ(pascal.int_mad(), "XMAD");
  EXPECT_EQ(volta.converge_begin(), "BSSY");
  EXPECT_EQ(pascal.converge_begin(), "SSY");
  EXPECT_EQ(volta.mma_16x16x16().size(), 16u);
  EXPECT_EQ(Dialect::for_version(75).mma_16x16x16().size(), 4u);
  EXPECT_EQ(ampere.mma_16x16x16(), (std::vector<std::string>(2, "HMMA.16816.F32")));
  EXPECT_THROW(pascal.mma_16x16x16(), Error);
  try {
    Dialect::for_version(72);
    FAIL() << "sm_72 accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Usage);
  }
}

TEST(Generator, EveryKindGivesConsistentCtasOnEveryVersion) {
  for (uint32_t version : Dialect::supported_versions()) {
    std::vector<KernelKind> kinds = kAllKinds;
    if (version < 70) kinds.pop_back();  // no tensor cores on Pascal
    GenOptions opt = options(kinds, 200, version);
    opt.params.block = 64;
    const Trace t = run(opt);
    ASSERT_EQ(t.launches.size(), kinds.size());
    for (size_t k = 0; k < t.launches.size(); ++k) {
      const Launch& l = t.launches[k];
      SCOPED_TRACE(l.info.name + " sm_" + std::to_string(version));
      EXPECT_EQ(l.info.id, k + 1);
      EXPECT_EQ(l.info.binary_version, version);
      EXPECT_EQ(l.info.trace_file, "kernel-" + std::to_string(k + 1) + ".traceg");
      EXPECT_EQ(l.ctas.size(), l.info.grid.volume());
      std::set<uint64_t> pcs;
      for (const auto& s : l.table) {
        EXPECT_TRUE(pcs.insert(s.pc).second) << "pc " << s.pc << " twice";
        EXPECT_EQ(s.mem_width, is_memory(s.opcode) ? width_from_opcode(s.opcode) : 0u) << s.opcode;
      }
      for (const auto& c : l.ctas) {
        EXPECT_EQ(c.kernel_id, l.info.id);
        EXPECT_EQ(c.warps.size(), (l.info.block.volume() + 31) / 32);
        stream::validate_cta(c, l.table, l.info.name);
        for (const auto& w : c.warps) {
          ASSERT_FALSE(w.inst.empty());
          EXPECT_EQ(l.table[w.inst.back()].opcode, "EXIT") << "warp " << w.warp_id;
          each_inst(w, l.table, [&](const StaticInst& s, uint32_t mask, const auto& addrs) {
            if (!s.mem_width) return;
            EXPECT_NE(mask, 0u);
            const bool shared = s.opcode[1] == 'D' ? s.opcode[2] == 'S' : s.opcode[2] == 'S';
            for (uint64_t a : addrs) {
              if (shared) {
                EXPECT_TRUE(a >= kSharedBase && a + s.mem_width <= kSharedBase + l.info.shmem)
                    << s.opcode << " " << std::hex << a;
              } else {
                EXPECT_GE(a, 0x00007f0000000000ull) << s.opcode;
              }
            }
          });
        }
      }
    }
  }
}

TEST(Generator, SameSeedSameTraceOtherSeedOtherRandomAddresses) {
  GenOptions opt = options({KernelKind::Gather, KernelKind::VecAdd}, 4096);
  const Trace a = run(opt), b = run(opt);
  ASSERT_EQ(a.launches.size(), 2u);
  EXPECT_EQ(a.launches[0].ctas, b.launches[0].ctas);
  EXPECT_EQ(a.launches[1].ctas, b.launches[1].ctas);
  opt.params.seed = 2;
  const Trace c = run(opt);
  EXPECT_NE(a.launches[0].ctas, c.launches[0].ctas);  // gather: random
  EXPECT_EQ(a.launches[1].ctas, c.launches[1].ctas);  // vecadd: no randomness
}

TEST(Generator, VecAddIsCoalescedAndMasksTheTail) {
  const Trace t = run(options({KernelKind::VecAdd}, 1000));  // 4 CTAs of 256
  const Launch& l = t.launches.at(0);
  ASSERT_EQ(l.ctas.size(), 4u);
  ASSERT_EQ(t.copies.size(), 2u);  // a and b come from the host
  EXPECT_EQ(t.copies[0].bytes, 4000u);
  std::set<uint64_t> stored;
  std::set<uint32_t> masks;
  for (const auto& c : l.ctas)
    for (const auto& w : c.warps)
      each_inst(w, l.table, [&](const StaticInst& s, uint32_t mask, const auto& addrs) {
        if (!s.mem_width) return;
        masks.insert(mask);
        if (addrs.size() > 1) {
          EXPECT_EQ(addrs[1] - addrs[0], 4u);
        }
        if (s.opcode.rfind("STG", 0) == 0) stored.insert(addrs.begin(), addrs.end());
      });
  for (const auto& w : l.ctas.back().warps)
    for (uint8_t m : w.addr_mode) EXPECT_EQ(m, uint8_t(AddrMode::BaseStride));
  EXPECT_EQ(stored.size(), 1000u);                             // each element written once
  EXPECT_EQ(masks, (std::set<uint32_t>{0xffffffffu, 0xffu}));  // 1000 = 31 * 32 + 8
}

TEST(Generator, GatherReadsRandomAddressesInsideItsInput) {
  const Trace t = run(options({KernelKind::Gather}, 8192));
  const Launch& l = t.launches.at(0);
  ASSERT_EQ(t.copies.size(), 2u);
  const uint64_t in = t.copies[1].address, end = in + t.copies[1].bytes;
  uint64_t random_loads = 0;
  std::set<uint64_t> seen;
  for (const auto& c : l.ctas)
    for (const auto& w : c.warps) {
      size_t mem = 0;
      each_inst(w, l.table, [&](const StaticInst& s, uint32_t, const auto& addrs) {
        if (!s.mem_width) return;
        if (addrs.front() >= in && addrs.front() < end && s.opcode[0] == 'L') {
          ++random_loads;
          EXPECT_EQ(w.addr_mode[mem], uint8_t(AddrMode::BaseDelta));
          for (uint64_t a : addrs) {
            EXPECT_TRUE(a >= in && a < end && a % 4 == 0);
            seen.insert(a);
          }
        }
        ++mem;
      });
    }
  EXPECT_EQ(random_loads, 8192u / 32);
  EXPECT_GT(seen.size(), 8192u / 2);  // spread over the input, not a pattern
}

TEST(Generator, GemmSynchronisesEachTileAndStagesThroughSharedMemory) {
  const Trace t = run(options({KernelKind::Gemm}, 64 * 64));  // 4x4 CTAs of 16x16, 4 k-tiles
  const Launch& l = t.launches.at(0);
  EXPECT_EQ(l.info.grid, (Dim3{4, 4, 1}));
  EXPECT_EQ(l.info.block, (Dim3{16, 16, 1}));
  EXPECT_EQ(l.info.shmem, 2048u);
  for (const auto& c : l.ctas) {
    EXPECT_EQ(count_opcode(l, c, "BAR.SYNC"), 8u * 2 * 4);  // 8 warps, 2 per k-tile
    EXPECT_EQ(count_opcode(l, c, "FFMA"), 8u * 16 * 4);
    EXPECT_EQ(count_opcode(l, c, "LDS.U.128"), 8u * 4 * 4);
  }
  GenOptions two_tiles = options({KernelKind::Gemm}, 64 * 64);
  two_tiles.params.iters = 2;
  const Trace short_k = run(two_tiles);
  EXPECT_EQ(count_opcode(short_k.launches[0], short_k.launches[0].ctas.at(5), "BAR.SYNC"),
            8u * 2 * 2);
}

TEST(Generator, ReductionDivergesWithPartialMasks) {
  for (uint32_t version : {61u, 70u}) {
    GenOptions opt = options({KernelKind::Reduce}, 1024, version);
    const Trace t = run(opt);
    const Launch& l = t.launches.at(0);
    const CtaTrace& c = l.ctas.at(0);
    std::set<uint32_t> partial;
    uint64_t result_stores = 0;
    for (const auto& w : c.warps)
      each_inst(w, l.table, [&](const StaticInst& s, uint32_t mask, const auto&) {
        if (s.opcode.rfind("LDS", 0) == 0 && mask != 0xffffffffu) partial.insert(mask);
        result_stores += s.opcode.rfind("STG", 0) == 0;
      });
    // Strides 16, 8, 4, 2, 1 leave those many lanes of warp 0 adding.
    EXPECT_EQ(partial, (std::set<uint32_t>{0xffff, 0xff, 0xf, 0x3, 0x1}));
    EXPECT_EQ(result_stores, 1u);
    EXPECT_EQ(count_opcode(l, c, version < 70 ? "SSY" : "BSSY"), 8u * 8);  // 8 warps, 8 steps
  }
}

TEST(Generator, TensorLoopIssuesTheVersionsHmmaSequence) {
  const std::map<uint32_t, uint64_t> hmma_per_step{{70, 16}, {75, 4}, {80, 2}, {90, 2}};
  for (const auto& [version, per_step] : hmma_per_step) {
    const Trace t = run(options({KernelKind::Tensor}, 64 * 64, version));  // 16 tiles, 4 k-steps
    const Launch& l = t.launches.at(0);
    EXPECT_EQ(l.ctas.size(), 4u);
    EXPECT_EQ(count_opcode(l, l.ctas[0], "HMMA"), 4 * 4 * per_step);
  }
  try {
    run(options({KernelKind::Tensor}, 64 * 64, 61));
    FAIL() << "tensor kernel on sm_61";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Usage);
  }
}

TEST(Generator, ImbalanceMakesEveryEighthCtaHeavy) {
  GenOptions opt = options({KernelKind::VecAdd}, 16 * 256 * 4);
  opt.params.iters = 4;
  opt.params.imbalance = 5;
  const Trace t = run(opt);
  const Launch& l = t.launches.at(0);
  ASSERT_EQ(l.ctas.size(), 16u);
  const auto dyn = [](const CtaTrace& c) {
    uint64_t n = 0;
    for (const auto& w : c.warps) n += w.inst.size();
    return n;
  };
  for (uint64_t c = 0; c < 16; ++c) {
    const bool heavy = c % 8 == 0;
    EXPECT_EQ(count_opcode(l, l.ctas[c], "FADD"), 8u * 4 * (heavy ? 5 : 1)) << "cta " << c;
    if (c > 0) {
      EXPECT_EQ(dyn(l.ctas[c]) > dyn(l.ctas[1]), heavy);
    }
  }
}

TEST(Generator, RepeatedLaunchesReuseTheirBuffers) {
  GenOptions opt = options({KernelKind::Stencil, KernelKind::Gather}, 4096);
  opt.repeat = 3;
  const Trace t = run(opt);
  ASSERT_EQ(t.launches.size(), 6u);
  EXPECT_EQ(t.copies.size(), 3u);  // stencil.in, gather.idx, gather.in: once
  for (size_t i = 2; i < 6; ++i) {
    EXPECT_EQ(t.launches[i].table, t.launches[i - 2].table);
    EXPECT_EQ(t.launches[i].info.id, i + 1);
    ASSERT_EQ(t.launches[i].ctas.size(), t.launches[i - 2].ctas.size());
    for (size_t c = 0; c < t.launches[i].ctas.size(); ++c)
      EXPECT_EQ(t.launches[i].ctas[c].warps, t.launches[i - 2].ctas[c].warps);
  }
}

TEST(Generator, StencilReadsTheFourNeighbours) {
  const Trace t = run(options({KernelKind::Stencil}, 64 * 64));  // side 64, one column block
  const Launch& l = t.launches.at(0);
  const uint64_t in = t.copies.at(0).address;
  const WarpTrace& w = l.ctas.at(0).warps.at(0);
  std::vector<std::vector<uint64_t>> first_five;
  each_inst(w, l.table, [&](const StaticInst& s, uint32_t mask, const auto& addrs) {
    if (s.opcode.rfind("LDG", 0) == 0 && first_five.size() < 5) {
      EXPECT_EQ(mask, 0xfffffffeu);  // column 0 is boundary
      first_five.push_back(addrs);
    }
  });
  ASSERT_EQ(first_five.size(), 5u);
  const uint64_t row = 64 * 4, center = in + row + 4;  // (y=1, x=1)
  EXPECT_EQ(first_five[0][0], center - row);
  EXPECT_EQ(first_five[1][0], center - 4);
  EXPECT_EQ(first_five[2][0], center);
  EXPECT_EQ(first_five[3][0], center + 4);
  EXPECT_EQ(first_five[4][0], center + row);
}

TEST(Generator, RefusesBadParameters) {
  const auto usage = [](GenOptions opt) {
    try {
      run(opt);
    } catch (const Error& e) {
      return e.code() == ExitCode::Usage;
    }
    return false;
  };
  GenOptions gemm = options({KernelKind::Gemm}, 64);
  gemm.params.block = 100;
  EXPECT_TRUE(usage(gemm));
  GenOptions reduce = options({KernelKind::Reduce}, 64);
  reduce.params.block = 96;
  EXPECT_TRUE(usage(reduce));
  GenOptions big = options({KernelKind::VecAdd}, 64);
  big.params.block = 2048;
  EXPECT_TRUE(usage(big));
  EXPECT_TRUE(usage(options({}, 64)));
}

TEST(MatrixSide, IsTheSmallestSquareHoldingTheElements) {
  EXPECT_EQ(matrix_side(16384), 128u);
  EXPECT_EQ(matrix_side(16385), 129u);
  EXPECT_EQ(matrix_side(1), 1u);
  EXPECT_EQ(matrix_side(1ull << 40), 1u << 20);
  EXPECT_EQ(matrix_side((1ull << 40) + 1), (1u << 20) + 1);
}
