// kernel-select on a summary export: one row per kernel name with its number
// of invocations and no per-launch data (nvprof --metrics or --events
// without the GPU trace, nsys's cuda_gpu_kern_sum, get_stats.py -k;
// formats/PROFILES.md). The launches of one name are taken as alike, so each
// name is one cluster from which one launch is picked, weighted by the
// name's invocations: the plan STEM makes when no cluster varies.
#pragma once

#include "formats/plan_record.hpp"
#include "formats/profile.hpp"
#include "methods.hpp"

namespace sasskit::kselect {

// Whether the export has one row per kernel name rather than per launch.
bool is_summary(const profile::Profile& src);

// The plan of a summary: per name (in the file's order) a cluster of its
// invocations and one pick, its first launch, numbered as if each name's
// launches followed those of the names before it (a summary gives no launch
// order; with one name the ids are exact). Warns on stderr that launches of
// one name are taken as alike. BadInput for a summary without kernels, a
// name with no invocations, or counts that add up past 2^64; a usage error
// for any method but stem.
Plan summary_plan(const profile::Profile& src, const MethodOptions& o);

}  // namespace sasskit::kselect
