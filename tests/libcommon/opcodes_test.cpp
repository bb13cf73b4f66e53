#include "libcommon/opcodes.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "libcommon/diag.hpp"

using namespace sasskit;
namespace fs = std::filesystem;

namespace {

OpcodeInfo op(uint32_t version, std::string_view opcode) {
  return OpcodeTable::for_version(version).classify(opcode);
}

fs::path scratch(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("sasskit-opcodes-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir / name;
}

// Every opcode of a real Accel-Sim trace: "pc mask ndst dst... OPCODE ...".
std::set<std::string> trace_opcodes(const fs::path& trace) {
  std::set<std::string> out;
  std::ifstream in(trace);
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string pc, mask, ndst;
    const auto is_hex = [](const std::string& s) {
      return !s.empty() && s.find_first_not_of("0123456789abcdefABCDEF") == std::string::npos;
    };
    if (!(words >> pc >> mask >> ndst) || !is_hex(pc) || mask.size() != 8 || !is_hex(mask) ||
        ndst.find_first_not_of("0123456789") != std::string::npos) {
      continue;
    }
    std::string token;
    for (int i = 0; i <= std::stoi(ndst); ++i) words >> token;
    out.insert(token);
  }
  return out;
}

}  // namespace

TEST(Opcodes, VoltaMemoryInstructions) {
  const OpcodeInfo ldg = op(70, "LDG.E.128.SYS");
  EXPECT_EQ(ldg.unit, UnitClass::Ldst);
  EXPECT_EQ(ldg.space, MemSpace::Global);
  EXPECT_TRUE(ldg.is_load);
  EXPECT_FALSE(ldg.is_store);
  EXPECT_EQ(op(70, "LDS.U.128").space, MemSpace::Shared);
  EXPECT_EQ(op(70, "LDL.64").space, MemSpace::Local);
  EXPECT_EQ(op(70, "LDC.64").space, MemSpace::Constant);
  EXPECT_EQ(op(70, "LD.E").space, MemSpace::Generic);
  EXPECT_TRUE(op(70, "STG.E.64.SYS").is_store);
  const OpcodeInfo atoms = op(70, "ATOMS.ADD");
  EXPECT_TRUE(atoms.is_atomic);
  EXPECT_EQ(atoms.space, MemSpace::Shared);
  const OpcodeInfo red = op(70, "RED.E.ADD.F32.FTZ.RN.STRONG.GPU");
  EXPECT_TRUE(red.is_atomic);
  EXPECT_TRUE(red.is_store);
  EXPECT_EQ(red.space, MemSpace::Global);
  EXPECT_EQ(op(70, "TEX.SCR.LL").space, MemSpace::Texture);
}

TEST(Opcodes, VoltaUnitsAndModifierExceptions) {
  EXPECT_EQ(op(70, "HMMA.884.F32.F32.STEP0").unit, UnitClass::Tensor);
  EXPECT_EQ(op(70, "MUFU.RSQ").unit, UnitClass::Sfu);
  EXPECT_EQ(op(70, "DADD").unit, UnitClass::Dp);
  EXPECT_EQ(op(70, "FFMA.FTZ").unit, UnitClass::Sp);
  EXPECT_EQ(op(70, "IMAD.WIDE.U32").unit, UnitClass::Sp);  // the FMA pipe on GV100
  EXPECT_EQ(op(70, "IADD3.X").unit, UnitClass::Int);
  EXPECT_EQ(op(70, "F2F.F32.F16").unit, UnitClass::Sfu);
  EXPECT_EQ(op(70, "F2F.F64.F32").unit, UnitClass::Dp);
  EXPECT_EQ(op(70, "I2F.F64.S64").unit, UnitClass::Dp);
  EXPECT_EQ(op(80, "UIADD3").unit, UnitClass::Int);
  EXPECT_EQ(op(80, "UIADD3.64").unit, UnitClass::Dp);
}

TEST(Opcodes, ControlFlow) {
  EXPECT_TRUE(op(70, "EXIT").is_exit);
  EXPECT_EQ(op(70, "EXIT").unit, UnitClass::Branch);
  EXPECT_TRUE(op(70, "BRA").is_branch);
  EXPECT_TRUE(op(70, "BRA.DIV").is_branch);
  EXPECT_TRUE(op(70, "BAR.SYNC").is_barrier);
  EXPECT_TRUE(op(70, "BAR.SYNC.DEFER_BLOCKING").is_barrier);
  EXPECT_FALSE(op(70, "BAR.ARV").is_barrier);
  EXPECT_FALSE(op(70, "BSSY").is_branch);
  EXPECT_TRUE(op(70, "BSYNC").is_branch);
  EXPECT_EQ(op(70, "WARPSYNC").unit, UnitClass::Branch);
  EXPECT_TRUE(op(61, "SYNC").is_branch);
  EXPECT_FALSE(op(61, "SSY").is_branch);
  EXPECT_TRUE(op(61, "EXIT").is_exit);
}

TEST(Opcodes, LaterTablesIncludeEarlierOnes) {
  EXPECT_TRUE(op(75, "LDG.E.SYS").known);
  const OpcodeInfo ldsm = op(75, "LDSM.16.M88.4");
  EXPECT_EQ(ldsm.space, MemSpace::Shared);
  EXPECT_TRUE(ldsm.is_load);
  EXPECT_EQ(op(75, "UMOV").unit, UnitClass::Int);
  EXPECT_EQ(op(80, "LDGSTS.E.BYPASS.128").space, MemSpace::Global);
  EXPECT_EQ(op(86, "DMMA.884").unit, UnitClass::Tensor);
  EXPECT_EQ(op(90, "HGMMA.64x128x16.F32").unit, UnitClass::Tensor);
  EXPECT_EQ(op(90, "UTMALDG.2D").space, MemSpace::Global);
  EXPECT_TRUE(op(90, "HMMA.16816.F32").known);
}

TEST(Opcodes, PascalRunsIntegerOnTheCudaCores) {
  EXPECT_EQ(op(61, "XMAD.PSL.CBCC").unit, UnitClass::Sp);
  EXPECT_EQ(op(61, "IADD.X").unit, UnitClass::Sp);
  const OpcodeInfo ldg = op(61, "LDG.E.CG");
  EXPECT_EQ(ldg.space, MemSpace::Global);
  EXPECT_TRUE(ldg.is_load);
}

TEST(Opcodes, NearestLowerTable) {
  EXPECT_EQ(fs::path(opcode_table_path(72)).filename(), "sm_70.tsv");
  EXPECT_EQ(fs::path(opcode_table_path(89)).filename(), "sm_86.tsv");
  EXPECT_EQ(fs::path(opcode_table_path(100)).filename(), "sm_90.tsv");
  EXPECT_EQ(fs::path(opcode_table_path(61)).filename(), "sm_61.tsv");
  EXPECT_EQ(fs::path(opcode_table_path(52)).filename(), "sm_61.tsv");  // lowest, with a warning
  EXPECT_EQ(&OpcodeTable::for_version(70), &OpcodeTable::for_version(72));
}

TEST(Opcodes, UnknownOpcodeWarnsOnceAndFallsBack) {
  std::ostringstream err;
  auto* old = std::cerr.rdbuf(err.rdbuf());
  const OpcodeInfo a = op(70, "FROB.X");
  const OpcodeInfo b = op(70, "FROB.Y");
  std::cerr.rdbuf(old);
  EXPECT_FALSE(a.known);
  EXPECT_FALSE(b.known);
  EXPECT_EQ(a.unit, UnitClass::Int);
  EXPECT_EQ(a.space, MemSpace::None);
  EXPECT_FALSE(a.is_load || a.is_store || a.is_branch || a.is_exit);
  const std::string text = err.str();
  EXPECT_NE(text.find("unknown opcode 'FROB'"), std::string::npos) << text;
  EXPECT_EQ(text.find("FROB", text.find("FROB") + 4), std::string::npos) << "warned twice: " << text;
}

TEST(Opcodes, ConcurrentReadersAgree) {
  const OpcodeTable& table = OpcodeTable::for_version(80);
  const std::vector<std::string> ops = {"LDG.E", "FFMA", "HMMA.16816.F32", "BRA", "EXIT", "IMAD.MOV.U32"};
  std::vector<std::thread> threads;
  std::atomic<int> mismatches{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 2000; ++i) {
        const std::string& o = ops[i % ops.size()];
        const OpcodeInfo info = table.classify(o);
        if (info.unit != table.classify(o).unit || !info.known) ++mismatches;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(mismatches.load(), 0);
}

TEST(Opcodes, TableErrorsNameFileAndLine) {
  const fs::path bad = scratch("bad.tsv");
  std::ofstream(bad) << "# comment\nFADD\tSP\t-\t-\nFMUL\tGPU\t-\t-\n";
  try {
    OpcodeTable table(bad.string());
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::BadInput);
    EXPECT_EQ(e.where(), bad.string() + ":3");
    EXPECT_NE(std::string(e.what()).find("GPU"), std::string::npos);
  }
}

TEST(Opcodes, IncludedRowsCanBeOverridden) {
  std::ofstream(scratch("base.tsv")) << "FADD\tSP\t-\t-\nLDG\tLDST\tglobal\tload\n";
  std::ofstream(scratch("derived.tsv")) << "include\tbase.tsv\nFADD\tDP\t-\t-\n";
  OpcodeTable table(scratch("derived.tsv").string());
  EXPECT_EQ(table.classify("FADD").unit, UnitClass::Dp);
  EXPECT_EQ(table.classify("LDG.E").space, MemSpace::Global);
}

TEST(Opcodes, EveryOpcodeOfTheRealTracesIsKnown) {
  const fs::path traces = SASSKIT_SHARED_DATA "/traces";
  if (!fs::exists(traces)) GTEST_SKIP() << "needs ../shared/data";
  for (const auto& [dir, version] : {std::pair{"vectoradd-sm61", 61u}, std::pair{"wmma-sm70", 70u}}) {
    const auto opcodes = trace_opcodes(traces / dir / "kernel-1.traceg");
    EXPECT_GT(opcodes.size(), 5u) << dir;
    for (const auto& opcode : opcodes) EXPECT_TRUE(op(version, opcode).known) << dir << ": " << opcode;
  }
}

TEST(Opcodes, SpaceNames) {
  EXPECT_STREQ(mem_space_name(MemSpace::Global), "global");
  EXPECT_STREQ(mem_space_name(MemSpace::None), "none");
  EXPECT_STREQ(mem_space_name(MemSpace::Generic), "generic");
}

TEST(Opcodes, EveryOpcodeOfPptGpusTablesIsKnown) {
  const fs::path dir = SASSKIT_SHARED_DATA "/reference-configs/ppt-gpu";
  if (!fs::exists(dir)) GTEST_SKIP() << "needs ../shared/data";
  const std::set<std::string> units = {"iALU", "fALU", "hALU", "dALU", "SFU", "iTCU", "hTCU", "dTCU", "BRA"};
  for (const auto& [file, version] :
       {std::pair{"volta-opcode-units.tsv", 70u}, std::pair{"ampere-opcode-units.tsv", 80u}}) {
    std::ifstream in(dir / file);
    int checked = 0;
    for (std::string line; std::getline(in, line);) {
      std::istringstream words(line);
      std::string opcode, unit;
      // SASS rows only: upper-case opcodes (the lower-case rows are PTX).
      if (!(words >> opcode >> unit) || !std::isupper(static_cast<unsigned char>(opcode[0])) ||
          !units.count(unit)) {
        continue;
      }
      EXPECT_TRUE(op(version, opcode).known) << file << ": " << opcode;
      ++checked;
    }
    EXPECT_GT(checked, 100) << file;
  }
}

TEST(Opcodes, HopperAsyncInstructionsAndTheirWaits) {
  EXPECT_TRUE(op(90, "HGMMA.64x256x16.F32.BF16").is_async);
  EXPECT_EQ(op(90, "HGMMA.64x256x16.F32.BF16").unit, UnitClass::Tensor);
  EXPECT_TRUE(op(90, "UTMALDG.2D").is_async);
  EXPECT_TRUE(op(90, "UTMALDG.2D").is_load);
  EXPECT_TRUE(op(90, "UBLKCP.S.G").is_async);
  EXPECT_TRUE(op(90, "WARPGROUP.DEPBAR.LE").is_mma_wait);
  EXPECT_FALSE(op(90, "WARPGROUP.ARRIVE").is_mma_wait);  // wgmma.fence waits for nothing in flight
  EXPECT_TRUE(op(90, "SYNCS.ARRIVE.TRANS64.A1T0").is_copy_group);
  EXPECT_TRUE(op(90, "SYNCS.PHASECHK.TRANS64.TRYWAIT").is_copy_wait);
  EXPECT_FALSE(op(90, "SYNCS.PHASECHK.TRANS64.TRYWAIT").is_copy_group);
  EXPECT_EQ(op(90, "SYNCS.PHASECHK.TRANS64.TRYWAIT").space, MemSpace::Shared);
  // Nothing before Hopper is asynchronous: Ampere's HMMA and LDGSTS keep their timing.
  EXPECT_FALSE(op(80, "HMMA.16816.F32").is_async);
  EXPECT_FALSE(op(90, "HMMA.16816.F32").is_async);
}
