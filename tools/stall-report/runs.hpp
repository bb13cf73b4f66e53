// Runs: what each input is called (its label, GPU model and configuration)
// and how the shards of one run are merged back into it.
#pragma once

#include <string>
#include <vector>

#include "report.hpp"

namespace sasskit::stallreport {

// The options of the stages that computed records for a GPU model
// (cta-sample, rd-cache, pipe-sim: those whose provenance names a gpu), as
// "tool opts; tool opts". Left out: the input, -o/--output, --config (the
// gpu column says it), -j/--threads, -q, --no-provenance. A stage run with
// --no-provenance shows as its name alone. Control characters become '?'.
std::string run_config(const std::vector<stream::Stage>& provenance);

// Sets rep.run (`label`, else the input's name as given), rep.gpu (the GPU
// stages' model, else the stats records') and rep.config.
void describe_run(Report& rep, const std::string& label);

// Reports with the same run label are shards of one run: their kernels are
// put together (by id) and the application totals recomputed. A kernel in
// several shards (CTA-range shards) becomes one row whose counts are summed
// (KernelReport::shards says how many). Shards must agree on GPU model and
// configuration (BadInput otherwise). Runs keep the order of first appearance.
std::vector<Report> merge_shards(std::vector<Report> reports);

}  // namespace sasskit::stallreport
