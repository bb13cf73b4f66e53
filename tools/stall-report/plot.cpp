#include "plot.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "columns.hpp"
#include "libcommon/diag.hpp"
#include "metrics.hpp"

namespace sasskit::stallreport {

namespace {

namespace fs = std::filesystem;

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    std::error_code ec;
    if (!dir.empty() && fs::exists(fs::path(dir) / program, ec)) return true;
  }
  return false;
}

std::string quoted(const std::string& s) {
  std::string q = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') q += '\\';
    q += c;
  }
  return q + "\"";
}

// A data block: one row per kernel and one for the application, one column
// per class of the group (percent of its whole).
void data_block(std::ostream& out, const std::string& name, const Report& rep, const ShareGroup& g) {
  out << '$' << name << " << EOD\nlabel";
  for (const Column& c : *g.columns) out << ' ' << c.title;
  out << '\n';
  auto row = [&](const std::string& label, const Metrics& m) {
    out << quoted(label);
    for (const Column& c : *g.columns) out << ' ' << 100 * share(*c.get(m), g.whole(m));
    out << '\n';
  };
  for (const KernelReport& k : rep.kernels) row(std::to_string(k.id) + " " + k.name.substr(0, 24), k.m);
  row(rep.projected ? "application (projected)" : "application", rep.totals);
  out << "EOD\n";
}

// One stacked-bar chart of a data block.
void panel(std::ostream& out, const std::string& data, const ShareGroup& g) {
  out << "set title " << quoted(g.title) << "\n";
  out << "plot for [i=2:" << g.columns->size() + 1 << "] $" << data << " using i:xtic(1) title columnheader(i)\n";
}

}  // namespace

std::string plot_terminal(const std::string& path) {
  if (ends_with(path, ".svg")) return "svg";
  if (ends_with(path, ".png")) return "pngcairo";
  fail_usage("--plot " + path + ": the file name must end in .svg or .png");
}

std::string plot_script(const Report& rep, const std::string& terminal, const std::string& output) {
  std::ostringstream s;
  s << "set terminal " << terminal << " size 1200,1200 noenhanced font \"sans,10\"\n";
  s << "set output " << quoted(output) << "\n";
  data_block(s, "stalls", rep, stall_type_group());
  data_block(s, "busy", rep, unit_busy_group());
  data_block(s, "insts", rep, unit_insts_group());
  s << "set style data histograms\nset style histogram rowstacked\nset style fill solid 0.85 border -1\n"
       "set boxwidth 0.7\nset yrange [0:100]\nset ylabel \"% of total\"\nset key outside right top\n"
       "set xtics rotate by -20\nset grid ytics\n";
  s << "set multiplot layout 3,1 title "
    << quoted(std::string(rep.projected ? "Projected s" : "S") + "tall and execution-unit breakdown: " + rep.source)
    << "\n";
  panel(s, "stalls", stall_type_group());
  panel(s, "busy", unit_busy_group());
  panel(s, "insts", unit_insts_group());
  s << "unset multiplot\n";
  return s.str();
}

void write_plot(const Report& rep, const std::string& path) {
  std::string terminal = plot_terminal(path);
  if (!on_path("gnuplot"))
    fail("--plot needs gnuplot, which is not on PATH; install it (e.g. apt-get install gnuplot-nox)");
  std::string tmp = path + ".tmp";
  std::string script = plot_script(rep, terminal, tmp);
  FILE* gp = popen("gnuplot", "w");
  if (!gp) fail_io(path, "cannot run gnuplot");
  std::fwrite(script.data(), 1, script.size(), gp);
  int status = pclose(gp);
  std::error_code ec;
  if (status != 0 || !fs::exists(tmp, ec)) {
    fs::remove(tmp, ec);
    fail_io(path, "gnuplot failed to draw the plot");
  }
  fs::rename(tmp, path, ec);
  if (ec) fail_io(path, "cannot write: " + ec.message());
}

}  // namespace sasskit::stallreport
