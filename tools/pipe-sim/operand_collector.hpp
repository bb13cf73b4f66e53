// The operand collectors of each sub-core: an issued instruction waits in a
// collector until its source operands are read from the register banks,
// then is dispatched, oldest first, to its execution pipeline or the memory
// pipeline. Which collectors are free is in the sub-core's port, for its
// scheduler.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "exec_pipes.hpp"
#include "memory_pipeline.hpp"
#include "ports.hpp"

namespace sasskit::pipesim {

class OperandCollector : private Stage {
 public:
  OperandCollector(const Stage& wiring, ExecPipes& exec, MemoryPipeline& memory);

  // No collector of any sub-core holds an instruction: dispatch and
  // read_operands have nothing to do (the SM skips them).
  bool idle() const { return busy_total_ == 0; }
  // An issued instruction takes collector `cu`.
  void allocate(unsigned subcore, uint32_t cu, const Op& op);
  // Collectors read their source operands oldest first; an operand whose
  // bank has no port left this cycle waits (a bank conflict).
  void read_operands(unsigned subcore);
  // Collectors whose operands are read pass their instruction on, oldest
  // first, when its unit takes it.
  void dispatch(unsigned subcore);

 private:
  struct Collector {
    bool ready = false;
    uint8_t unread = 0;   // bit i: src operand i still to read
    Op op;
  };
  // A sub-core's collectors, and the busy ones in the order they were
  // allocated (oldest first), which is the order they read and dispatch in.
  struct SubCoreCollectors {
    std::vector<Collector> cus;
    std::array<uint8_t, kMaxCollectors> by_age{};
    uint8_t busy = 0;
  };

  ExecPipes& exec_;
  MemoryPipeline& memory_;
  std::vector<SubCoreCollectors> subcores_;
  unsigned busy_total_ = 0;  // over the sub-cores (most cycles none)
};

}  // namespace sasskit::pipesim
