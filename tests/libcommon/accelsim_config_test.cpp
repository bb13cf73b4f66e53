#include "libcommon/accelsim_config.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/support/gpu_models.hpp"
#include "libcommon/diag.hpp"

using namespace sasskit;
namespace fs = std::filesystem;

namespace {

const std::string kAccelSim = SASSKIT_SHARED_DATA "/reference-configs/accel-sim";

fs::path scratch_dir(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("sasskit-accelsim-" + std::to_string(::getpid())) / name;
  fs::create_directories(dir);
  return dir;
}

// A small but complete Accel-Sim configuration, so the importer is tested
// without ../shared/data too.
fs::path tiny_config(const std::string& name, const std::string& extra = "") {
  const fs::path dir = scratch_dir(name);
  std::ofstream(dir / "gpgpusim.config")
      << "# a comment line\n"
         "-gpgpu_n_clusters 10\n-gpgpu_n_cores_per_cluster 2\n-gpgpu_n_mem 4\n"
         "-gpgpu_n_sub_partition_per_mchannel 2\n-gpgpu_clock_domains 1000.0:1000.0:1000.0:2000.5\n"
         "-gpgpu_shader_registers 65536\n-gpgpu_shader_core_pipeline 2048:32 # threads:warp\n"
         "-gpgpu_shader_cta 32\n-gpgpu_num_sched_per_core 4\n-gpgpu_sub_core_model 1\n"
         "-gpgpu_num_sp_units 4\n-gpgpu_num_int_units 8\n-gpgpu_num_dp_units 4\n-gpgpu_num_sfu_units 4\n"
         "-gpgpu_num_tensor_core_units 4\n-gpgpu_operand_collector_num_units_gen 8\n-gpgpu_num_reg_banks 16\n"
         "-gpgpu_reg_file_port_throughput 2\n-gpgpu_scheduler gto\n-gpgpu_shmem_size 65536\n"
         "-gpgpu_shmem_per_block 49152\n-gpgpu_shmem_option 32,64\n-gpgpu_unified_l1d_size 96\n"
         "-gpgpu_adaptive_cache_config 1\n-gpgpu_cache:dl1 S:4:128:64,L:T:m:L:L,A:256:32,16:0,32\n"
         "-gpgpu_l1_latency 30\n-gpgpu_smem_latency 25\n-gpgpu_cache:dl2 "
         "S:64:128:16,L:B:m:L:P,A:192:4,32:0,32\n"
         "-gpgpu_l2_rop_latency 150\n-dram_latency 100\n-gpgpu_dram_buswidth 4\n"
         "-dram_data_command_freq_ratio 4\n-icnt_flit_size 32\n-gpgpu_kernel_launch_latency 4000\n"
         "-gpgpu_TB_launch_latency 12\n-gpgpu_max_concurrent_kernel 128\n"
         "-gpgpu_dram_timing_opt \"nbk=16:CCD=1:\n   CL=12:WL=2\"\n"
      << extra;
  std::ofstream(dir / "trace.config") << "-trace_opcode_latency_initiation_int 4,2\n"
                                         "-trace_opcode_latency_initiation_sp 4,1\n"
                                         "-trace_opcode_latency_initiation_dp 8,4\n"
                                         "-trace_opcode_latency_initiation_sfu 20,8\n"
                                         "-trace_opcode_latency_initiation_tensor 16,16\n"
                                         "-specialized_unit_1 1,4,4,4,4,BRA\n"
                                         "-trace_opcode_latency_initiation_spec_op_1 6,3\n";
  return dir;
}

}  // namespace

TEST(AccelSimImport, TinyConfigMapsEveryPart) {
  const GpuConfig g = import_accelsim(tiny_config("SM99_TINY").string());
  EXPECT_EQ(g.name, "TINY");
  EXPECT_EQ(g.num_sms, 20u);
  EXPECT_EQ(g.max_threads_per_sm, 2048u);
  EXPECT_EQ(g.max_warps_per_sm, 64u);
  EXPECT_EQ(g.subcores_per_sm, 4u);
  EXPECT_EQ(g.collector_units, 2u);
  EXPECT_EQ(g.reg_banks, 4u);
  EXPECT_EQ(g.scheduler, SchedulerPolicy::Gto);
  EXPECT_EQ(g.unit(UnitClass::Int).count, 2u);
  EXPECT_EQ(g.unit(UnitClass::Sp).latency, 4u);
  EXPECT_EQ(g.unit(UnitClass::Sp).initiation_interval, 1u);
  EXPECT_EQ(g.unit(UnitClass::Branch).latency, 6u);
  EXPECT_EQ(g.unit(UnitClass::Branch).initiation_interval, 3u);
  EXPECT_EQ(g.unit(UnitClass::Tensor).latency, 16u);
  // adaptive L1: 96 KiB unified - 64 KiB shared = 32 KiB, 4 sets kept -> 64 ways
  EXPECT_EQ(g.l1d.size_bytes, 32u << 10);
  EXPECT_EQ(g.l1d.assoc, 64u);
  EXPECT_EQ(g.l1d.sector_bytes, 32u);
  EXPECT_EQ(g.l1d.mshrs, 256u);
  EXPECT_TRUE(g.l1d.write_allocate);
  EXPECT_EQ(g.l1d.write_policy, WritePolicy::WriteThrough);
  // L2: 8 sub-partitions x 64 sets x 128 B x 16 ways = 1 MiB
  EXPECT_EQ(g.l2.size_bytes, 1u << 20);
  EXPECT_EQ(g.l2_slices, 8u);
  EXPECT_EQ(g.l2.write_policy, WritePolicy::WriteBack);
  EXPECT_EQ(g.l2.latency, 180u);  // ROP 150 + L1 30
  EXPECT_DOUBLE_EQ(g.dram_bandwidth_gbs, 4 * 4 * 4 * 2000.5 / 1000);
  EXPECT_DOUBLE_EQ(g.noc_bytes_per_cycle, 8 * 32);
  EXPECT_DOUBLE_EQ(g.noc_port_bytes_per_cycle, 32);  // a 32-byte sector per flit
  EXPECT_EQ(g.kernel_launch_latency, 4000u);
  EXPECT_EQ(g.cta_launch_latency, 12u);
  EXPECT_DOUBLE_EQ(g.cta_dispatch_rate, 10);  // a CTA per cluster (of two SMs) per cycle
  EXPECT_EQ(g.max_concurrent_kernels, 128u);
  EXPECT_EQ(g.smem_carveouts_kb, (std::vector<unsigned>{32, 64}));
  EXPECT_NO_THROW(validate(g));
}

TEST(AccelSimImport, BadValueNamesFileAndLine) {
  const fs::path dir = tiny_config("bad", "-gpgpu_shader_cta lots\n");
  try {
    import_accelsim(dir.string());
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::BadInput);
    EXPECT_EQ(e.where(), (dir / "gpgpusim.config").string() + ":40");
    EXPECT_NE(std::string(e.what()).find("-gpgpu_shader_cta"), std::string::npos) << e.what();
  }
}

TEST(AccelSimImport, CacheOptionWithoutValueIsBadInput) {
  // Found by accelsim_config_fuzz: an empty value has no fields to index.
  const fs::path dir = tiny_config("empty-cache", "-gpgpu_cache:dl1\n");
  try {
    import_accelsim(dir.string());
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::BadInput);
    EXPECT_NE(std::string(e.what()).find("-gpgpu_cache:dl1"), std::string::npos) << e.what();
  }
}

TEST(AccelSimImport, MissingOptionIsNamed) {
  const fs::path dir = scratch_dir("missing");
  std::ofstream(dir / "gpgpusim.config") << "-gpgpu_n_clusters 4\n";
  std::ofstream(dir / "trace.config") << "\n";
  try {
    import_accelsim(dir.string());
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::BadInput);
    EXPECT_NE(std::string(e.what()).find("missing option -"), std::string::npos) << e.what();
  }
}

TEST(AccelSimImport, MissingDirectoryIsAnIoError) {
  try {
    import_accelsim("/nonexistent/accel-sim-config");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Io);
  }
}

TEST(AccelSimImport, TestedConfigsImportAndValidate) {
  if (!fs::exists(kAccelSim)) GTEST_SKIP() << "needs ../shared/data";
  for (const char* dir : {"SM7_QV100", "SM75_RTX2060", "SM86_RTX3070", "SM90_H100"}) {
    SCOPED_TRACE(dir);
    const GpuConfig g = import_accelsim(kAccelSim + "/" + dir);
    EXPECT_NO_THROW(validate(g));
    EXPECT_FALSE(g.has_l0i);
  }
  const GpuConfig rtx3070 = import_accelsim(kAccelSim + "/SM86_RTX3070");
  EXPECT_EQ(rtx3070.num_sms, 46u);
  EXPECT_EQ(rtx3070.l1d.size_bytes, 28u << 10);  // 128 KiB unified - 100 KiB shared
  EXPECT_EQ(rtx3070.l2.size_bytes, 4u << 20);
  EXPECT_NEAR(rtx3070.dram_bandwidth_gbs, 448, 0.1);
}

TEST(AccelSimImport, QV100AgreesWithTheBundledModelOnGeometry) {
  if (!fs::exists(kAccelSim)) GTEST_SKIP() << "needs ../shared/data";
  const GpuConfig imported = import_accelsim(kAccelSim + "/SM7_QV100");
  const GpuConfig ours = test::bundled("qv100");
  EXPECT_EQ(imported.name, ours.name);
  EXPECT_EQ(imported.clock_mhz, ours.clock_mhz);
  EXPECT_EQ(imported.num_sms, ours.num_sms);
  EXPECT_EQ(imported.subcores_per_sm, ours.subcores_per_sm);
  EXPECT_EQ(imported.warp_size, ours.warp_size);
  EXPECT_EQ(imported.max_warps_per_sm, ours.max_warps_per_sm);
  EXPECT_EQ(imported.max_threads_per_sm, ours.max_threads_per_sm);
  EXPECT_EQ(imported.max_ctas_per_sm, ours.max_ctas_per_sm);
  EXPECT_EQ(imported.regs_per_sm, ours.regs_per_sm);
  EXPECT_EQ(imported.smem_per_sm, ours.smem_per_sm);
  EXPECT_EQ(imported.smem_carveouts_kb, ours.smem_carveouts_kb);
  EXPECT_EQ(imported.unified_l1_smem_bytes, ours.unified_l1_smem_bytes);
  EXPECT_EQ(imported.collector_units, ours.collector_units);
  EXPECT_EQ(imported.reg_banks, ours.reg_banks);
  EXPECT_EQ(imported.l1d.size_bytes, ours.l1d.size_bytes);
  EXPECT_EQ(imported.l1d.line_bytes, ours.l1d.line_bytes);
  EXPECT_EQ(imported.l1d.sector_bytes, ours.l1d.sector_bytes);
  EXPECT_EQ(imported.l1d.assoc, ours.l1d.assoc);
  EXPECT_EQ(imported.l2.size_bytes, ours.l2.size_bytes);
  EXPECT_EQ(imported.l2.line_bytes, ours.l2.line_bytes);
  EXPECT_EQ(imported.l2_slices, ours.l2_slices);
  EXPECT_NEAR(imported.dram_bandwidth_gbs, ours.dram_bandwidth_gbs, 1.0);
  EXPECT_EQ(imported.kernel_launch_latency, ours.kernel_launch_latency);
  EXPECT_EQ(imported.cta_launch_latency, ours.cta_launch_latency);
  EXPECT_EQ(imported.max_concurrent_kernels, ours.max_concurrent_kernels);
  for (UnitClass u : {UnitClass::Int, UnitClass::Sp, UnitClass::Dp, UnitClass::Sfu}) {
    EXPECT_EQ(imported.unit(u).initiation_interval, ours.unit(u).initiation_interval) << unit_name(u);
  }
}
