#include <cinttypes>
#include <cstdio>

#include "columns.hpp"
#include "formats/csv.hpp"
#include "output.hpp"

namespace sasskit::stallreport {

void write_pcs_csv(std::ostream& out, const std::vector<Report>& runs) {
  out << "run,kernel_id,kernel_name,pc,warp_insts,stall_cycles";
  for (const Column& c : stall_type_columns()) out << ',' << c.key;
  out << ",main_stall,sass\n";
  for (const Report& rep : runs)
    for (const KernelReport& k : rep.kernels) {
      for (const StalledPc& p : k.pcs) {
        char pc[32];
        std::snprintf(pc, sizeof pc, "0x%04" PRIx64, p.pc);
        out << csv_field(rep.run) << ',' << k.id << ',' << csv_field(k.name) << ',' << pc << ',' << p.insts << ','
            << p.stall_cycles;
        for (uint64_t v : p.stall_type) out << ',' << v;
        out << ',' << (p.stall_cycles ? stall_type_name(p.main_type) : "") << ',' << csv_field(p.sass) << '\n';
      }
    }
}

}  // namespace sasskit::stallreport
