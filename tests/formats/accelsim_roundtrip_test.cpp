// Accel-Sim text: every feature read into the model and written back.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "accelsim_test_support.hpp"
#include "formats/accelsim_text.hpp"
#include "libcommon/io.hpp"

using namespace sasskit;
using namespace sasskit::test;
namespace fs = std::filesystem;

namespace {

const std::string kModes =
    "#BEGIN_TB\n"
    "\n"
    "thread block = 0,0,0\n"
    "\n"
    "warp = 0\n"
    "insts = 12\n"
    "0000 ffffffff 1 R1 MOV 0 0 \n"
    "0010 ffffffff 1 R4 LDG.E.SYS 1 R2 4 1 0x7f0000001000 4 \n"
    "0020 0000000f 1 R5 LDG.E.SYS 1 R2 4 1 0x7f0000001100 -8\n"
    "0030 00000010 1 R6 LDG.E.SYS 1 R2 4 1 0x7f0000001200 12\n"
    "0040 00000000 1 R7 LDG.E.SYS 1 R2 4 1 0x0 0\n"
    "0050 80000101 0 STG.E.SYS 2 R2 R4 4 0 0x00007f0000002000 0x00007f0000002100 "
    "0x00007f0000002004\n"
    "0060 f000000f 0 STG.E.64.SYS 2 R2 R4 8 2 0x7f0000003000 8 8 8 -100 8 8 8\n"
    "0070 00000000 0 STG.E.SYS 2 R2 R4 4 2 0x7f0000004000\n"
    "0080 00000100 0 ST.E 2 R2 R4 4 2 0x7f0000005000\n"
    "0090 00000000 1 R8 LDS 1 R2 4 0\n"
    "00a0   00000000  0  EXIT  0  0\n"
    "00b0 ffffffff 2 R10 R11 HMMA.884.F32.F32.STEP0 3 R12 R14 R255 0\n"
    "\n"
    "warp = 1\n"
    "insts = 0\n"
    "\n"
    "#END_TB\n"
    "\n"
    "#BEGIN_TB\n"
    "\n"
    "thread block = 1,0,0\n"
    "\n"
    "warp = 0\n"
    "insts = 2\n"
    "0010 ffffffff 1 R4 LDG.E.SYS 1 R2 4 1 0x7f0000001080 4\n"
    "0010 ffffffff 1 R9 LDG.E.SYS 1 R2 4 1 0x7f0000001080 4\n"
    "\n"
    "warp = 1\n"
    "insts = 1\n"
    "0000 ffffffff 1 R1 MOV 0 0\n"
    "\n"
    "#END_TB\n";

const WarpTrace& first_warp(const Records& r) { return r.ctas.at(0).warps.at(0); }

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

fs::path temp_dir(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("sasskit-accelsim-" + name + "-" +
                                              std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

}  // namespace

TEST(AccelsimText, ReadsEveryHeaderField) {
  Records r = read_records(header(4) + kModes, "dir/kernel-2.traceg");
  ASSERT_EQ(r.kernels.size(), 1u);
  const KernelInfo& k = r.kernels[0];
  EXPECT_EQ(k.name, "_Z6kernelPfS_i");
  EXPECT_EQ(k.id, 2u);
  EXPECT_EQ(k.grid, (Dim3{2, 1, 1}));
  EXPECT_EQ(k.block, (Dim3{64, 1, 1}));
  EXPECT_EQ(k.shmem, 1024u);
  EXPECT_EQ(k.nregs, 16u);
  EXPECT_EQ(k.binary_version, 70u);
  EXPECT_EQ(k.stream_id, 0u);
  EXPECT_EQ(k.shmem_base, 0x7f2b5a000000u);
  EXPECT_EQ(k.local_base, 0x7f2b58000000u);
  EXPECT_EQ(k.nvbit_version, "1.5.5");
  EXPECT_EQ(k.tracer_version, 4u);
  EXPECT_FALSE(k.lineinfo);
  EXPECT_EQ(k.trace_file, "kernel-2.traceg");
  ASSERT_EQ(k.comments.size(), 1u);
  EXPECT_TRUE(k.comments[0].starts_with("#traces format = [line_num] PC mask"));
}

TEST(AccelsimText, ExpandsEveryAddressModeToOneAddressPerActiveLane) {
  Records r = read_records(header(4) + kModes);
  const WarpTrace& w = first_warp(r);
  ASSERT_EQ(w.inst.size(), 12u);
  EXPECT_EQ(w.mask[2], 0xfu);
  EXPECT_EQ(w.addr_mode, (std::vector<uint8_t>{1, 1, 1, 1, 0, 2, 2, 2, 0}));
  std::vector<uint64_t> want;
  for (uint64_t i = 0; i < 32; ++i) want.push_back(0x7f0000001000 + 4 * i);  // mode 1, full warp
  for (uint64_t i = 0; i < 4; ++i) want.push_back(0x7f0000001100 - 8 * i);   // negative stride
  want.push_back(0x7f0000001200);                                            // one lane
  want.insert(want.end(), {0x7f0000002000, 0x7f0000002100, 0x7f0000002004});  // mode 0, lanes 0, 8, 31
  for (uint64_t a : {0x7f0000003000, 0x7f0000003008, 0x7f0000003010, 0x7f0000003018,
                     0x7f0000002fb4, 0x7f0000002fbc, 0x7f0000002fc4, 0x7f0000002fcc})
    want.push_back(a);  // mode 2, deltas 8 8 8 -100 8 8 8
  want.push_back(0x7f0000005000);  // mode 2, one lane: base only
  EXPECT_EQ(w.addrs, want);
  // What the addresses do not determine: the stride of the one-lane access,
  // base and stride of the mask-0 access, the base of the mask-0 mode-2 one.
  EXPECT_EQ(w.addr_extra, (std::vector<uint64_t>{12, 0, 0, 0x7f0000004000}));
  EXPECT_EQ(r.ctas[0].warps[0].inst.size() + r.ctas[0].warps[1].inst.size(), 12u);
}

TEST(AccelsimText, StoresEachStaticInstructionOnceAndAnnouncesItBeforeUse) {
  Records r = read_records(header(4) + kModes);
  ASSERT_EQ(r.tables.size(), 2u);
  EXPECT_EQ(r.tables[0].first, 0u);
  EXPECT_EQ(r.tables[0].insts.size(), 12u);
  // Block 1 repeats PC 0x10 as is (same entry) and with another register
  // (a new entry), and repeats PC 0x0.
  EXPECT_EQ(r.tables[1].first, 12u);
  ASSERT_EQ(r.tables[1].insts.size(), 1u);
  EXPECT_EQ(r.tables[1].insts[0].dst, (std::vector<uint16_t>{9}));
  EXPECT_EQ(r.ctas[1].warps[0].inst, (std::vector<uint32_t>{1, 12}));
  EXPECT_EQ(r.ctas[1].warps[1].inst, (std::vector<uint32_t>{0}));
  const StaticInst& hmma = r.tables[0].insts[11];
  EXPECT_EQ(hmma.opcode, "HMMA.884.F32.F32.STEP0");
  EXPECT_EQ(hmma.dst, (std::vector<uint16_t>{10, 11}));
  EXPECT_EQ(hmma.src, (std::vector<uint16_t>{12, 14, 255}));
}

TEST(AccelsimText, RoundTripsEveryAddressModeAndMask) {
  std::string text = header(4) + kModes;
  EXPECT_EQ(normalise(rewrite(text)), normalise(text));
}

TEST(AccelsimText, RoundTripsLineInfo) {
  std::string text = header(4, true) +
                     "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 3\n"
                     "17 0000 ffffffff 1 R1 MOV 0 0\n"
                     "18 0010 0000ffff 1 R4 LDG.E.SYS 1 R2 4 1 0x7f0000001000 4\n"
                     "0 0020 ffffffff 0 EXIT 0 0\n"
                     "#END_TB\n";
  Records r = read_records(text);
  EXPECT_TRUE(r.kernels[0].lineinfo);
  EXPECT_EQ(r.tables[0].insts[0].line, 17u);
  EXPECT_EQ(r.tables[0].insts[2].line, 0u);
  EXPECT_EQ(normalise(rewrite(text)), normalise(text));
}

TEST(AccelsimText, RoundTripsVersion5Immediates) {
  std::string text =
      header(5, false,
             "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] "
             "mem_width [adrrescompress?] [mem_addresses] immediate") +
      "#BEGIN_TB\nthread block = 1,0,0\nwarp = 0\ninsts = 4\n"
      "0000 ffffffff 1 R1 MOV 0 0 0 \n"
      "0010 00000003 1 R4 LDG.E.SYS 1 R2 4 2 0x7f0000001000 64 -5 \n"
      "0020 00000001 0 DEPBAR.LE 0 0 1 \n"
      "0030 ffffffff 0 EXIT 0 0 0 \n"
      "#END_TB\n";
  Records r = read_records(text);
  EXPECT_EQ(r.tables[0].insts[1].imm, "-5");
  EXPECT_EQ(r.ctas[0].warps[0].addrs, (std::vector<uint64_t>{0x7f0000001000, 0x7f0000001040}));
  EXPECT_EQ(normalise(rewrite(text)), normalise(text));
}

TEST(AccelsimText, ReadsRawVersion3LinesIntoThreadBlocks) {
  const std::string comment =
      "#traces format = threadblock_x threadblock_y threadblock_z warpid_tb PC mask dest_num "
      "[reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses]";
  std::string raw = header(3, false, comment) +
                    "1 0 0 0 0000 ffffffff 1 R1 MOV 0 0 \n"
                    "0 0 0 1 0000 ffffffff 1 R1 MOV 0 0 \n"
                    "0 0 0 0 0000 ffffffff 1 R1 MOV 0 0 \n"
                    "1 0 0 0 0010 ffffffff 1 R4 LDG.E.SYS 1 R2 4 1 0x7f0000001080 4 \n"
                    "0 0 0 0 0010 0000ffff 1 R4 LDG.E.SYS 1 R2 4 1 0x7f0000001000 4 \n"
                    "0 0 0 1 0020 00000000 0 EXIT 0 0 \n";
  std::string grouped = header(3, false, comment) +
                        "#BEGIN_TB\nthread block = 0,0,0\n"
                        "warp = 0\ninsts = 2\n"
                        "0000 ffffffff 1 R1 MOV 0 0\n"
                        "0010 0000ffff 1 R4 LDG.E.SYS 1 R2 4 1 0x7f0000001000 4\n"
                        "warp = 1\ninsts = 2\n"
                        "0000 ffffffff 1 R1 MOV 0 0\n"
                        "0020 00000000 0 EXIT 0 0\n"
                        "#END_TB\n"
                        "#BEGIN_TB\nthread block = 1,0,0\n"
                        "warp = 0\ninsts = 2\n"
                        "0000 ffffffff 1 R1 MOV 0 0\n"
                        "0010 ffffffff 1 R4 LDG.E.SYS 1 R2 4 1 0x7f0000001080 4\n"
                        "warp = 1\ninsts = 0\n"
                        "#END_TB\n";
  Records r = read_records(raw);
  EXPECT_EQ(r.kernels[0].tracer_version, 3u);
  ASSERT_EQ(r.ctas.size(), 2u);
  EXPECT_EQ(r.ctas[1].cta, (Dim3{1, 0, 0}));
  EXPECT_EQ(normalise(rewrite(raw)), normalise(grouped));
  EXPECT_EQ(normalise(rewrite(grouped)), normalise(grouped));
}

TEST(AccelsimText, WriterRefusesAddressesThatBaseStrideCannotWrite) {
  Records r = read_records(header(4) + kModes);
  std::ostringstream out;
  accelsim::KernelTraceWriter w(out, r.kernels[0]);
  w.insts(r.tables[0]);
  CtaTrace cta = r.ctas[0];
  cta.warps[0].addrs[5] += 1;  // breaks the first access's stride
  try {
    w.cta(cta);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.where() + ": " + e.what(),
              "kernel 2 thread block 0,0,0: expected addresses that address mode 1 "
              "(base+stride) can write, found mask ffffffff with irregular addresses");
  }
  EXPECT_THROW(w.insts(r.tables[0]), Error);  // entries from 0 again, 12 expected
  InstTable with_imm = r.tables[1];
  with_imm.insts[0].imm = "5";  // version 4 without an "immediate" comment has none
  EXPECT_THROW(w.insts(with_imm), Error);
  KernelInfo v2 = r.kernels[0];
  v2.tracer_version = 2;
  EXPECT_THROW(accelsim::KernelTraceWriter(out, v2), Error);
}

TEST(AccelsimText, KernelListRoundTripsMemcpyLinesAndKernelsInOrder) {
  const std::string text =
      "MemcpyHtoD,0x00007ffb72700000,8192\n"
      "kernel-1.traceg\n"
      "\n"
      "MemcpyHtoD,0x00007ffb72702000,16384\n"
      "kernel-2.traceg.xz\n";
  std::istringstream in(text);
  auto entries = accelsim::read_kernel_list(in, "kernelslist.g");
  ASSERT_EQ(entries.size(), 4u);
  EXPECT_EQ(std::get<Memcpy>(entries[0]), (Memcpy{0x7ffb72700000, 8192}));
  EXPECT_EQ(std::get<std::string>(entries[1]), "kernel-1.traceg");
  EXPECT_EQ(std::get<std::string>(entries[3]), "kernel-2.traceg.xz");
  std::ostringstream out;
  accelsim::write_kernel_list(out, entries);
  EXPECT_EQ(normalise(out.str()), normalise(text));
}

TEST(AccelsimText, ReadsXzAndGzipCompressedTraces) {
  fs::path dir = temp_dir("compressed");
  const std::string text = header(4) + kModes;
  std::ofstream(dir / "kernel-1.traceg") << text;
  std::string plain = (dir / "kernel-1.traceg").string();
  ASSERT_EQ(std::system(("xz -k -T1 " + plain + " && gzip -k " + plain).c_str()), 0);
  Records want = read_records(text);
  for (const char* suffix : {".xz", ".gz"}) {
    std::string path = plain + suffix;
    Input in(path);
    Records got = read_records(in.stream(), path);
    EXPECT_EQ(got.ctas, want.ctas) << suffix;
    EXPECT_EQ(got.tables, want.tables) << suffix;
  }
  fs::remove_all(dir);
}

TEST(AccelsimText, RoundTripsTheSharedRealTraces) {
  fs::path traces = fs::path(SASSKIT_SHARED_DATA) / "traces";
  if (!fs::is_directory(traces)) GTEST_SKIP() << "needs ../shared/data";
  int kernels = 0;
  for (const auto& dir : fs::directory_iterator(traces)) {
    fs::path list_path = dir.path() / "kernelslist.g";
    std::ifstream list(list_path);
    auto entries = accelsim::read_kernel_list(list, list_path.string());
    std::ostringstream list_out;
    accelsim::write_kernel_list(list_out, entries);
    EXPECT_EQ(normalise(list_out.str()), normalise(slurp(list_path))) << list_path;
    for (const auto& e : entries) {
      if (!std::holds_alternative<std::string>(e)) continue;
      fs::path kernel = dir.path() / std::get<std::string>(e);
      std::ifstream in(kernel);
      EXPECT_EQ(rewrite(in, kernel.string()), slurp(kernel)) << kernel;  // byte for byte
      ++kernels;
    }
  }
  EXPECT_GE(kernels, 2);
}

TEST(AccelsimText, ReadsRawLinesWithLineInfoAndImmediates) {
  std::string raw = header(5, true, "#traces format = [line_num] PC mask ... immediate") +
                    "0 0 0 1 7 0000 ffffffff 1 R1 MOV 0 0 0 \n"
                    "0 0 0 1 8 0010 00000003 0 ST.E 2 R2 R4 4 2 0x7f0000001000 -64 16 \n";
  Records r = read_records(raw);
  ASSERT_EQ(r.ctas.size(), 1u);
  const WarpTrace& w = r.ctas[0].warps.at(1);
  EXPECT_EQ(w.addrs, (std::vector<uint64_t>{0x7f0000001000, 0x7f0000000fc0}));
  EXPECT_EQ(r.tables[0].insts[1].line, 8u);
  EXPECT_EQ(r.tables[0].insts[1].imm, "16");
  EXPECT_TRUE(r.ctas[0].warps[0].inst.empty());
}

TEST(AccelsimText, AHeaderCommentNamingImmediatesMakesThemRequired) {
  std::string text = header(4, false, "#traces format = PC mask ... [mem_addresses] immediate") +
                     "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
                     "0010 00000003 0 ST.E 2 R2 R4 4 2 0x1000 64 64 -5\n#END_TB\n";
  // Two deltas and an immediate where one delta belongs: the count is wrong.
  EXPECT_EQ(read_error(text),
            "t.traceg:21: expected 1 deltas (active lanes - 1, mask 00000003), found 2");
  text.replace(text.find(" 64 64"), 6, " 64");
  EXPECT_EQ(normalise(rewrite(text)), normalise(text));
}

TEST(AccelsimText, AKernelWithoutThreadBlocksIsJustItsHeader) {
  Records r = read_records(header(4));
  EXPECT_EQ(r.kernels.size(), 1u);
  EXPECT_TRUE(r.ctas.empty());
  EXPECT_EQ(normalise(rewrite(header(4))), normalise(header(4)));
}

TEST(AccelsimText, AcceptsCrLfLineEnds) {
  std::string text = header(4) + kModes, crlf;
  for (char c : text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  Records unix_lines = read_records(text), dos_lines = read_records(crlf);
  EXPECT_EQ(dos_lines.ctas, unix_lines.ctas);
  EXPECT_EQ(dos_lines.kernels, unix_lines.kernels);
}

// The writer's hex digits, a byte per step: odd and even digit counts, the
// padding of masks and the full 64 bits.
TEST(AccelsimText, AppendHexWritesTheShortestDigitsPaddedToTheWidth) {
  using accelsim::detail::append_hex;
  const auto hex = [](uint64_t value, int width) {
    std::string out = "<";
    append_hex(out, value, width);
    return out;
  };
  EXPECT_EQ(hex(0, 1), "<0");
  EXPECT_EQ(hex(0, 8), "<00000000");
  EXPECT_EQ(hex(0x1, 1), "<1");
  EXPECT_EQ(hex(0x10, 1), "<10");
  EXPECT_EQ(hex(0xabc, 1), "<abc");
  EXPECT_EQ(hex(0xabc, 4), "<0abc");
  EXPECT_EQ(hex(0xabc, 3), "<abc");
  EXPECT_EQ(hex(0xffffffff, 8), "<ffffffff");
  EXPECT_EQ(hex(0x10000, 8), "<00010000");
  EXPECT_EQ(hex(0x7f4c2a000000, 1), "<7f4c2a000000");
  EXPECT_EQ(hex(UINT64_MAX, 1), "<ffffffffffffffff");
  EXPECT_EQ(hex(0x0123456789abcdefULL, 16), "<0123456789abcdef");
}
