#!/usr/bin/env python3
"""Checks the reference values stall-report read from a real profiler export
against the same values computed here, independently, with the csv module.

usage: reference_values.py EXPORT STALL_REPORT_CSV
Prints one line per metric checked (or a mismatch) for kernel 1."""
import csv
import sys

# Reasons with no sasskit stall type, and those that are not stalls.
UNMAPPED = {"imc_miss", "misc", "sleeping", "allocation_stall", "tile_allocation_stall",
            "constant_memory_dependency", "other"}
NOT_STALLS = {"selected", "not_selected"}
TYPE = {"long_scoreboard": "MemData", "short_scoreboard": "MemData", "wait": "ComData",
        "math_pipe_throttle": "ComStruct", "dispatch_stall": "ComStruct", "mio_throttle": "MemStruct",
        "lg_throttle": "MemStruct", "tex_throttle": "MemStruct", "drain": "MemStruct",
        "barrier": "Sync", "membar": "Sync", "branch_resolving": "Ctrl", "no_instructions": "Ctrl",
        "inst_fetch": "Ctrl", "exec_dependency": "ComData", "memory_dependency": "MemData",
        "texture": "MemStruct", "sync": "Sync", "pipe_busy": "ComStruct", "memory_throttle": "MemStruct"}


# ncu scales byte units by powers of 1000 (Nsight Compute CLI manual, "Metrics and Units").
BYTES = {"byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9, "Tbyte": 1e12}
SECTOR = 32


def number(text):
    return float(text.replace(",", "").rstrip("%"))


def first_kernel(path):
    """Column name -> value of the first kernel row (units rows and ==PID== lines skipped)."""
    with open(path, newline="") as f:
        rows = [r for r in csv.reader(line for line in f if not line.startswith("=="))]
    header = rows[0]
    for row in rows[1:]:
        values = dict(zip(header, row))
        if values.get("ID", "x") != "" and values.get("Device", "x") != "":
            return values
    raise SystemExit(f"{path}: no kernel row")


def details_first_kernel(path):
    """ncu details page: metric name -> (value, unit) of launch ID 0."""
    with open(path, newline="", encoding="utf-8-sig") as f:
        lines = [line for line in f if line.startswith('"ID"') or line.startswith('"0"')]
    return {r["Metric Name"]: (r["Metric Value"], r["Metric Unit"]) for r in csv.DictReader(lines)}


def expected_details(m):
    """What reaches the table from the details page of ncu 2020+ against a run without rd-cache."""
    def sectors(name):
        value, unit = m[name]
        return number(value) * BYTES[unit] / SECTOR
    return {"occupancy": number(m["sm__warps_active.avg.pct_of_peak_sustained_active"][0]) / 100,
            "dram_read_sectors": sectors("dram__bytes_op_read.sum"),
            "dram_write_sectors": sectors("dram__bytes_op_write.sum"),
            "smem_bank_conflicts": number(m["l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"][0])}


def expected(v):
    out = {}
    def total(*names):
        present = [number(v[n]) for n in names if n in v]
        return sum(present) if present else None
    if "smsp__inst_executed_sum" in v:  # ncu before 2020
        out["cycles"] = number(v["gpc__elapsed_cycles_max"])
        out["instructions"] = number(v["smsp__inst_executed_sum"])
        out["sm_ipc"] = number(v["sm__inst_executed_avg_per_active_cycle"])
        out["occupancy"] = number(v["sm__active_warps_avg_per_active_cycle_pct"]) / 100
        out["l1_hit_rate"] = number(v["tex__hitrate_pct"]) / 100
        out["l2_hit_rate"] = number(v["lts__request_total_sectors_hitrate_pct"]) / 100
        out["gmem_requests"] = total("sass__inst_executed_global_loads", "sass__inst_executed_global_stores",
                                     "smsp__inst_executed_global_atomics_sum", "smsp__inst_executed_global_reductions_sum")
        out["l2_sectors"] = total(*[n for n in v if n.startswith(("tex__m_rd_sectors_miss_global_ld", "tex__m_rd_sectors_miss_local_ld"))
                                    and not n.endswith("_pct")],
                                  "tex__m_rd_sectors_global_atom", "tex__m_wr_sectors_global_nonatom",
                                  "tex__m_wr_sectors_global_atom", "tex__m_wr_sectors_global_red", "tex__m_wr_sectors_local_st")
        out["dram_read_sectors"] = number(v["dram__read_sectors"])
        out["dram_write_sectors"] = number(v["dram__write_sectors"])
        out["smem_bank_conflicts"] = total("sm__shmem_ld_bank_conflict_sum", "sm__shmem_st_bank_conflict_sum")
        prefix = "smsp__warp_cycles_per_issue_stall_"
    else:  # nvprof --print-gpu-trace --metrics all
        out["instructions"] = number(v["inst_executed"])
        out["sm_ipc"] = number(v["ipc"])
        out["occupancy"] = number(v["achieved_occupancy"])
        out["l1_hit_rate"] = number(v["global_hit_rate"]) / 100
        out["l2_hit_rate"] = number(v["l2_tex_hit_rate"]) / 100
        out["gmem_requests"] = total("inst_executed_global_loads", "inst_executed_global_stores",
                                     "inst_executed_global_atomics", "inst_executed_global_reductions")
        out["l2_sectors"] = total("l2_tex_read_transactions", "l2_tex_write_transactions")
        out["dram_read_sectors"] = number(v["dram_read_transactions"])
        out["dram_write_sectors"] = number(v["dram_write_transactions"])
        prefix = "stall_"
    by_type = {}
    for name, text in v.items():
        reason = name[len(prefix):] if name.startswith(prefix) else None
        if reason and reason not in NOT_STALLS and reason not in UNMAPPED:
            by_type[TYPE[reason]] = by_type.get(TYPE[reason], 0) + number(text)
    mapped = sum(by_type.values())
    for t in ("MemStruct", "MemData", "ComStruct", "ComData", "Sync", "Ctrl"):
        out[f"stall_{t}_share"] = by_type.get(t, 0) / mapped
    return out


def main(export, report):
    with open(export, encoding="utf-8-sig") as f:
        details = '"Metric Name"' in f.read()
    want = expected_details(details_first_kernel(export)) if details else expected(first_kernel(export))
    with open(report, newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["kernel_id"] == "1"]
    got = {r["metric"]: float(r["reference"]) for r in rows if r["reference"] != ""}
    simulated = {r["metric"]: float(r["simulated"]) for r in rows if r["simulated"] != ""}
    bad = 0
    for metric, value in want.items():
        if metric not in got:
            print(f"{metric}: not compared by stall-report")
            bad += 1
        elif abs(got[metric] - value) > 1e-9 * max(1, abs(value)):
            print(f"{metric}: stall-report read {got[metric]}, the export holds {value}")
            bad += 1
        else:
            print(f"{metric}: ok")
    # The distance is the total variation of the two share distributions.
    shares = [m for m in want if m.startswith("stall_")]
    if not shares:
        return 1 if bad else 0
    distance = 100 * sum(abs(simulated[m] - got[m]) for m in shares) / 2
    stated = next(float(r["abs_error_pp"]) for r in rows if r["metric"] == "stall_distance")
    for side, values in (("simulated", simulated), ("reference", got)):
        total = sum(values[m] for m in shares)
        print(f"{side} stall shares add up to {total:.6f}")
    if abs(stated - distance) > 1e-6:
        print(f"stall_distance: stall-report says {stated} pp, the shares give {distance} pp")
        bad += 1
    else:
        print("stall_distance: ok")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
