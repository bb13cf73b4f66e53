// The operand collectors built alone: instructions allocated to them, their
// operands read from the register banks, and a fake that takes or refuses
// what they dispatch.
#include <gtest/gtest.h>

#include <set>

#include "decode.hpp"
#include "micro.hpp"
#include "operand_collector.hpp"

using namespace sasskit;
using namespace sasskit::pipesim;
using namespace sasskit::pipesim::test;

namespace {

// Records the warps offered, in order, and takes all but those refused.
struct FakeUnits {
  std::vector<uint32_t> offered;
  std::set<uint32_t> refused;
  bool accept(unsigned, const Op& op, const DecodedInst&) {
    offered.push_back(op.warp);
    return !refused.contains(op.warp);
  }
};

// One sub-core with two collectors over two register banks of two ports.
class OneSubCoreCollectors : public ::testing::Test, protected LoneStage {
 protected:
  OneSubCoreCollectors() : LoneStage(one_subcore_gpu()) {
    fadd_ = t_.add("FADD", {10}, {2, 3});       // banks 0 and 1
    iadd_ = t_.add("IADD3", {11}, {2, 4, 6});   // three reads of bank 0
    build();
  }

  // The collectors' cycle at `now` (dispatch, then operand reads), with
  // `write_backs` ports of bank 0 taken first; the warps offered.
  std::vector<uint32_t> cycle(uint64_t now, uint8_t write_backs = 0) {
    clock_.now = now;
    clock_.take();
    port().new_cycle();
    port().bank_ports[0] = write_backs;
    units_.offered.clear();
    collectors_.dispatch(0, units_);
    collectors_.read_operands(0);
    return units_.offered;
  }
  void allocate(uint32_t cu, uint32_t warp, uint32_t inst) {
    collectors_.allocate(0, cu, Op{.warp = warp, .inst = inst});
  }

  uint32_t fadd_ = 0, iadd_ = 0;
  OperandCollector collectors_{wiring_};
  FakeUnits units_;
};

TEST_F(OneSubCoreCollectors, DispatchesOldestFirstAndFreesTheCollectorsTaken) {
  EXPECT_TRUE(collectors_.idle());
  allocate(1, 5, fadd_);  // the older, in collector 1
  allocate(0, 6, fadd_);
  EXPECT_FALSE(collectors_.idle());
  EXPECT_EQ(port().free_collector(), kNone);
  EXPECT_TRUE(cycle(100).empty());  // operands read this cycle, dispatch from the next
  EXPECT_FALSE(port().events.has(StallEvent::BankConflict));

  units_.refused = {5};
  EXPECT_EQ(cycle(101), (std::vector<uint32_t>{5, 6}));
  EXPECT_EQ(port().free_collector(), 0u);  // warp 6's
  EXPECT_EQ(counters_.units[size_t(UnitClass::Sp)].insts, 1u);
  EXPECT_TRUE(clock_.next() == 102);  // progressed

  units_.refused.clear();
  EXPECT_EQ(cycle(102), (std::vector<uint32_t>{5}));
  EXPECT_EQ(port().free_collector(), 0u);
  EXPECT_TRUE(collectors_.idle());
  EXPECT_TRUE(cycle(103).empty());
}

TEST_F(OneSubCoreCollectors, AnOperandWhoseBankHasNoPortLeftWaitsACycle) {
  allocate(0, 1, iadd_);
  EXPECT_TRUE(cycle(100).empty());  // two of its three bank-0 reads
  EXPECT_TRUE(port().events.has(StallEvent::BankConflict));
  EXPECT_EQ(counters_.reg_bank_conflicts, 1u);
  EXPECT_TRUE(cycle(101, 2).empty());  // write-backs took both ports: nothing read
  EXPECT_EQ(counters_.reg_bank_conflicts, 2u);
  EXPECT_TRUE(cycle(102).empty());  // the last read
  EXPECT_FALSE(port().events.has(StallEvent::BankConflict));
  EXPECT_EQ(cycle(103), (std::vector<uint32_t>{1}));
}

}  // namespace
