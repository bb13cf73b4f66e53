#include "plot.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <sstream>

#include "libcommon/diag.hpp"
#include "libcommon/io.hpp"
#include "plot_table.hpp"

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

// A gnuplot single-quoted string: nothing is substituted inside one (no
// backquote commands, no escapes); a quote is written twice.
std::string single_quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("''") : std::string(1, c);
  return q + "'";
}

// Where a panel sits on the canvas, in fractions of it.
struct Area {
  double x, y, w, h;
};

void place(std::ostream& out, const Area& a) {
  out << "set origin " << a.x << ',' << a.y << "\nset size " << a.w << ',' << a.h << '\n';
}

// One data block per group: a header of series names, then a row per bar
// whose label is plot_label()ed text in double quotes.
void data_blocks(std::ostream& out, const std::string& name, const PlotTable& t) {
  for (size_t g = 0; g < t.groups.size(); ++g) {
    out << '$' << name << g << " << EOD\nlabel";
    for (const std::string& s : t.series) out << " \"" << s << '"';
    out << '\n';
    for (const PlotRow& r : t.groups[g].rows) {
      out << '"' << r.label << '"';
      for (double v : r.values) out << ' ' << v;
      out << '\n';
    }
    out << "EOD\n";
  }
}

// Where each group's first bar sits: groups follow one another with one
// empty slot between them. gnuplot draws a rowstacked newhistogram after
// the first one bar's width past its `at` (gnuplot 5.4).
std::vector<size_t> group_starts(const PlotTable& t) {
  std::vector<size_t> starts;
  size_t x = 0;
  for (const PlotGroup& g : t.groups) {
    starts.push_back(x);
    x += g.rows.size() + 1;
  }
  return starts;
}

// The error bars (bar i of a group at its start + i): x, stack height and
// half-width per bar that has one; false when none has.
bool error_block(std::ostream& out, const std::string& name, const PlotTable& t) {
  std::ostringstream rows;
  const std::vector<size_t> starts = group_starts(t);
  for (size_t g = 0; g < t.groups.size(); ++g) {
    const auto& bars = t.groups[g].rows;
    for (size_t i = 0; i < bars.size(); ++i) {
      if (!bars[i].error) continue;
      double height = 0;
      for (double v : bars[i].values) height += v;
      rows << starts[g] + i << ' ' << height << ' ' << *bars[i].error << '\n';
    }
  }
  if (rows.str().empty()) return false;
  out << '$' << name << "err << EOD\n" << rows.str() << "EOD\n";
  return true;
}

// A rowstacked bar chart of a table: each group a newhistogram, colours
// restarting per group so a segment has one colour throughout; error bars
// over the stacks that have one.
void histogram(std::ostream& out, const std::string& name, const PlotTable& t, const Area& a) {
  data_blocks(out, name, t);
  const bool errors = error_block(out, name, t);
  place(out, a);
  out << "set title " << single_quoted(t.title) << "\nset ylabel " << single_quoted(t.ylabel) << '\n'
      << "set style data histograms\nset style histogram rowstacked title offset 0,-1\n"
         "set style fill solid 0.85 border -1\nset boxwidth 0.75\nset yrange [0:*]\nset xrange [*:*]\n"
         "unset logscale\nset key outside right top\nset xtics rotate by -25 nomirror\nset grid ytics\n";
  out << "plot ";
  const std::vector<size_t> starts = group_starts(t);
  for (size_t g = 0; g < t.groups.size(); ++g) {
    if (g) out << ", ";
    out << "newhistogram " << single_quoted(t.groups[g].title) << " lt " << t.first_linetype << " at "
        << (g ? starts[g] - 1 : 0)
        << ", for [i=2:"
        << t.series.size() + 1 << "] $"
        << name << g << " using i:xtic(1) " << (g ? "notitle" : "title columnheader(i)");
  }
  if (errors) out << ", $" << name << "err using 1:2:3 with yerrorbars lt -1 lw 1.5 ps 0 title 'error estimate'";
  out << '\n';
}

// Simulated against reference for one metric, with the y = x line; log
// axes for counts that span decades.
void scatter(std::ostream& out, const std::string& name, const ScatterSeries& s, const Area& a) {
  out << '$' << name << " << EOD\n";
  double lo = 0, hi = 0;
  for (auto [ref, sim] : s.points) {
    out << ref << ' ' << sim << '\n';
    lo = lo == 0 ? std::min(ref, sim) : std::min({lo, ref, sim});
    hi = std::max({hi, ref, sim});
  }
  out << "EOD\n";
  place(out, a);
  if (hi <= 0) hi = 1;  // every value 0 (no bank conflicts): gnuplot refuses an empty range
  bool log = lo > 0 && (s.log || hi / lo > 100);
  // Counts in thousands and more as 2k, 1.5M: plain tick labels run into each other in a narrow panel.
  out << (hi >= 1000 ? "set format xy '%.1s%c'\n" : "set format xy '%g'\n");
  const std::string unit = s.unit.empty() ? "" : " (" + s.unit + ")";
  out << "set title " << single_quoted(s.title.empty() ? s.metric + ": simulated vs reference" : s.title)
      << "\nset xlabel " << single_quoted("reference" + unit) << "\nset ylabel " << single_quoted("simulated" + unit)
      << "\nset style data points\nset key inside top left\nset xtics norotate\n"
      << (log ? "set logscale xy\n" : "unset logscale\n") << "set xrange [" << (log ? lo / 2 : 0) << ':'
      << hi * (log ? 2 : 1.1) << "]\nset yrange [" << (log ? lo / 2 : 0) << ':' << hi * (log ? 2 : 1.1) << "]\n"
      << "plot $" << name << " using 1:2 with points lt 2 pt 7 ps 1.3 title 'kernels', x with lines lt 8 dt 2 title 'y = x'\n"
      << "unset xlabel\nset format xy '%g'\n";
}

// Nine distinguishable colours (grey first: the issue cycles of a CPI
// stack), so no two segments of a stack share one.
void colours(std::ostream& out) {
  static const char* rgb[] = {"#b0b0b0", "#4e79a7", "#a0cbe8", "#f28e2b", "#ffbe7d",
                              "#59a14f", "#e15759", "#79706e", "#b07aa1"};
  for (size_t i = 0; i < std::size(rgb); ++i) out << "set linetype " << i + 1 << " lc rgb '" << rgb[i] << "'\n";
}

// Sizes are given in pixels; pdfcairo measures in inches, at 100 pixels each.
std::string plot_size(const std::string& terminal, int width, int height) {
  if (terminal != "pdfcairo") return std::to_string(width) + "," + std::to_string(height);
  std::ostringstream s;
  s << width / 100.0 << "in," << height / 100.0 << "in";
  return s.str();
}

std::string header(const std::string& terminal, const std::string& output, int height, const std::string& title) {
  std::ostringstream s;
  s << "set terminal " << terminal << " size " << plot_size(terminal, 1200, height) << " noenhanced font 'sans,10'\n";
  colours(s);
  s << "set output " << single_quoted(output) << "\nset multiplot title " << single_quoted(title) << '\n';
  return s.str();
}

// The script for (terminal, output file).
using ScriptFor = std::function<std::string(const std::string&, const std::string&)>;

// FILE.gp: the script that draws FILE.svg, its data inline, for a user to
// restyle and run with gnuplot; nothing is drawn.
void write_script(const std::string& path, const ScriptFor& script_for) {
  Output out(path, OutputKind::Text);
  out.stream() << script_for(plot_terminal(path), path.substr(0, path.size() - 3) + ".svg");
  out.commit();
}

void draw(const std::string& path, const ScriptFor& script_for) {
  if (ends_with(path, ".gp")) return write_script(path, script_for);
  std::string terminal = plot_terminal(path);
  if (!on_path("gnuplot"))
    fail("--plot needs gnuplot, which is not on PATH; install it (e.g. apt-get install gnuplot-nox)");
  // gnuplot draws into a temporary of its own (created with O_EXCL under an
  // unpredictable name, removed on a signal), renamed into place once drawn:
  // never through a planted link, never half a plot, and two runs drawing
  // the same plot do not share one.
  Temporary temporary = create_temporary_beside(path);
  std::string script = script_for(terminal, temporary.path());
  FILE* gp = popen("gnuplot", "w");
  if (!gp) fail_io(path, "cannot run gnuplot");
  std::fwrite(script.data(), 1, script.size(), gp);
  int status = pclose(gp);
  std::error_code ec;
  if (status != 0 || fs::file_size(temporary.path(), ec) == 0 || ec)
    fail_io(path, "gnuplot failed to draw the plot");
  temporary.rename_to(path, path);
}

}  // namespace

std::string plot_terminal(const std::string& path) {
  if (std::any_of(path.begin(), path.end(), [](char c) { return c >= 0 && c < ' '; }))
    fail_usage("--plot: the file name has control characters");
  if (ends_with(path, ".svg") || ends_with(path, ".gp")) return "svg";
  if (ends_with(path, ".png")) return "pngcairo";
  if (ends_with(path, ".pdf")) return "pdfcairo";
  fail_usage("--plot " + path + ": the file name must end in .svg, .png, .pdf or .gp");
}

std::string plot_script(const Report& rep, const Validation* validation, const std::string& terminal,
                        const std::string& output) {
  std::vector<ScatterSeries> scatters = validation ? validation_scatter(*validation) : std::vector<ScatterSeries>{};
  const bool stalls = validation && !validation->stalls.empty();
  // Scatter panels four to a row, so that each stays wide enough to read.
  constexpr size_t kPerRow = 4;
  const size_t scatter_rows = (scatters.size() + kPerRow - 1) / kPerRow;
  const int rows = 3 + int(stalls) + int(scatter_rows);
  const double h = 1.0 / rows;
  std::ostringstream s;
  s << header(terminal, output, 400 * rows,
              std::string(rep.projected ? "Projected s" : "S") + "tall breakdown: " + plot_label(rep.source, 60));
  histogram(s, "cpi", cpi_stack_table(rep), {0, 1 - h, 1, h * 0.95});
  histogram(s, "cycles", cycle_stack_table(rep), {0, 1 - 2 * h, 1, h * 0.95});
  histogram(s, "busy", unit_busy_table(rep), {0, 1 - 3 * h, 1, h * 0.95});
  if (stalls) histogram(s, "stalls", stall_comparison_table(validation->stalls), {0, 1 - 4 * h, 1, h * 0.95});
  const size_t per_row = std::min(kPerRow, scatters.size());
  for (size_t i = 0; i < scatters.size(); ++i) {
    const double w = 1.0 / per_row;
    const size_t row = i / kPerRow;
    scatter(s, "ref" + std::to_string(i), scatters[i], {(i % kPerRow) * w, (scatter_rows - 1 - row) * h, w, h * 0.95});
  }
  s << "unset multiplot\n";
  return s.str();
}

std::string compare_plot_script(const std::vector<Report>& runs, const std::string& terminal,
                                const std::string& output) {
  std::ostringstream s;
  s << header(terminal, output, 1000, "Comparison of " + std::to_string(runs.size()) + " runs");
  histogram(s, "cpi", compare_cpi_table(runs), {0, 0.4, 1, 0.58});
  histogram(s, "cycles", compare_cycle_table(runs), {0, 0, 1, 0.38});
  s << "unset multiplot\n";
  return s.str();
}

std::string correlation_plot_script(const Validation& suite, const std::string& terminal, const std::string& output) {
  const std::vector<ScatterSeries> panels = correlation_scatter(suite);
  constexpr size_t kPerRow = 3;
  const size_t rows = std::max<size_t>(1, (panels.size() + kPerRow - 1) / kPerRow);
  std::ostringstream s;
  s << header(terminal, output, int(450 * rows),
              "Simulated against reference: " + std::to_string(suite.matched) + " kernels, " + suite.reference);
  for (size_t i = 0; i < panels.size(); ++i) {
    const double w = 1.0 / kPerRow, h = 0.96 / rows;
    const size_t row = i / kPerRow;
    scatter(s, "corr" + std::to_string(i), panels[i], {(i % kPerRow) * w, (rows - 1 - row) * h, w, h * 0.95});
  }
  s << "unset multiplot\n";
  return s.str();
}

void write_correlation_plot(const Validation& suite, const std::string& path) {
  draw(path, [&](const std::string& terminal, const std::string& tmp) {
    return correlation_plot_script(suite, terminal, tmp);
  });
}

void write_plot(const Report& rep, const Validation* validation, const std::string& path) {
  draw(path, [&](const std::string& terminal, const std::string& tmp) {
    return plot_script(rep, validation, terminal, tmp);
  });
}

void write_compare_plot(const std::vector<Report>& runs, const std::string& path) {
  draw(path, [&](const std::string& terminal, const std::string& tmp) {
    return compare_plot_script(runs, terminal, tmp);
  });
}

}  // namespace sasskit::stallreport
