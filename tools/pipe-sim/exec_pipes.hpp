// The execution units of each sub-core: pipelines by unit class, each
// taking a new instruction every initiation interval (when each is next
// free is in the sub-core's port, for its scheduler), and the results on
// their way to write-back, which passes them to the register banks (ports
// shared with operand reads, write-backs first) and then to the warp table.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "ports.hpp"
#include "program.hpp"
#include "warp_table.hpp"

namespace sasskit::pipesim {

class ExecPipes : private Stage {
 public:
  ExecPipes(const Stage& wiring, WarpTable& warps);

  // Dispatch of a non-memory instruction: false (a dispatch-queue stall)
  // when every pipeline of its class is busy. Flattened: it queues the
  // result in place of a call (LTO left enqueue_result one).
  [[gnu::flatten]] bool accept(unsigned subcore, const Op& op, const DecodedInst& d);
  // A result that becomes ready at op.done (from a pipeline or the memory
  // pipeline) waits for write-back.
  void enqueue_result(unsigned subcore, const Op& op);
  // Results due by now write back in order of readiness; the rest wait.
  void write_back(unsigned subcore);
  // Loads with a request beyond L1 whose result is not written back yet.
  uint32_t long_misses(unsigned subcore) const { return subcores_[subcore].long_misses; }
  unsigned bank(uint16_t reg) const { return reg % banks_; }
  // Ports per register bank and cycle, for write-backs and operand reads together.
  unsigned ports_per_bank() const { return ports_per_bank_; }

 private:
  struct SubCorePipes {
    // Results on their way to write-back, by ready cycle, from
    // executing[first] on: those written back leave the front without
    // moving the rest, and their room is reclaimed once the storage is full.
    std::vector<Op> executing;
    size_t first = 0;
    uint32_t long_misses = 0;
  };
  // Drops the results written back, executing[first, first + n).
  static void drop_front(SubCorePipes& sc, size_t n);

  WarpTable& warps_;
  unsigned banks_ = 1;
  unsigned ports_per_bank_ = 1;
  std::vector<SubCorePipes> subcores_;
};

}  // namespace sasskit::pipesim
