#include "plot.hpp"

#include <algorithm>
#include <cmath>
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

// Every plot's width in pixels (its height follows its panels).
constexpr int kCanvasWidth = 1200;

// Where a panel sits on the canvas, in fractions of it.
struct Area {
  double x, y, w, h;
};

// A chart across the canvas: its plot area starts and ends at the same
// place as every other's, whatever its tick labels and key, so that the
// panels line up; the key sits in the right margin.
void place_chart(std::ostream& out, const Area& a) {
  out << "set origin " << a.x << ',' << a.y << "\nset size noratio " << a.w << ',' << a.h << '\n'
      << "set lmargin at screen " << a.x + 0.07 * a.w << "\nset rmargin at screen " << a.x + 0.84 * a.w << '\n'
      << "set bmargin -1\n";
}

// A scatter: a square plot area (the axes share their range, so y = x is
// the diagonal), margins as its labels need.
void place_square(std::ostream& out, const Area& a) {
  out << "set origin " << a.x << ',' << a.y << "\nset size ratio 1 " << a.w << ',' << a.h << '\n'
      << "set lmargin -1\nset rmargin -1\nset bmargin 6\n";  // room for the x label and the key below it
}

// The error bars' key entry and style: a bar with caps (vectors, which
// leave no gap at the centre as yerrorbars does).
const char* kErrorBarStyle = "with vectors heads size screen 0.006,90 lt -1 lw 1.5";

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
  place_chart(out, a);
  out << "set title " << single_quoted(t.title) << "\nset ylabel " << single_quoted(t.ylabel) << '\n'
      << "set style data histograms\nset style histogram rowstacked title offset 0,-1\n"
         "set style fill solid 0.85 border -1\nset boxwidth 0.75\nset yrange [0:*]\nset xrange [*:*]\n"
         "set offsets 0,0,graph 0.05,0\n"
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
    // The key entry right after the segments': each newhistogram adds a
    // blank line to the key.
    if (!g && errors) out << ", keyentry " << kErrorBarStyle << " title " << single_quoted(t.error_title);
  }
  if (errors) out << ", $" << name << "err using 1:($2-$3):(0):(2*$3) " << kErrorBarStyle << " notitle";
  out << '\n';
}

// The application's cycles per run as bars, each with its speedup over
// the first run above it and its error bar where one is known.
void speedup(std::ostream& out, const std::string& name, const SpeedupChart& c, const Area& a) {
  out << '$' << name << " << EOD\n";
  double top = 0;
  bool errors = false;
  for (const RunCycles& r : c.runs) {
    out << '"' << r.label << "\" " << r.cycles << ' ' << r.error.value_or(0) << " \"" << r.speedup << "\"\n";
    top = std::max(top, r.cycles + r.error.value_or(0));
    errors = errors || r.error;
  }
  out << "EOD\n";
  place_chart(out, a);
  out << "set title " << single_quoted(c.title) << "\nset ylabel " << single_quoted(c.ylabel) << '\n'
      << "set style fill solid 0.85 border -1\nset boxwidth 0.6\nunset logscale\nset xrange [-0.7:"
      << c.runs.size() - 0.3 << "]\nset yrange [0:" << (top > 0 ? top * 1.2 : 1) << "]\n"
      << "set key outside right top\nset xtics rotate by -25 nomirror\nset grid ytics\n"
      << "plot $" << name << " using 0:2:xtic(1) with boxes lt 2 notitle, $" << name
      << " using 0:($2+$3):4 with labels offset 0,0.8 notitle";
  if (errors)
    out << ", $" << name << " using 0:($3 > 0 ? $2-$3 : NaN):(0):(2*$3) " << kErrorBarStyle << " title 'error estimate'";
  out << "\nset xrange [*:*]\n";
}

// A scatter's axes, the same on x and y: whole decades around the points
// on log axes, else from 0 in steps of 1, 2 or 5 times a power of ten, at
// most about five ticks so that their labels never run into each other.
struct ScatterAxes {
  double lo = 0, hi = 1, step = 0;  // step: between ticks, a factor on log axes
  bool log = false;
};

double nice_step(double x) {
  const double p = std::pow(10, std::floor(std::log10(x)));
  const double f = x / p;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
}

ScatterAxes scatter_axes(const ScatterSeries& s) {
  double lo = HUGE_VAL, hi = 0;
  for (const ScatterPoint& p : s.points) {
    lo = std::min({lo, p.reference, p.simulated});
    hi = std::max({hi, p.reference, p.simulated});
  }
  if (s.log && lo > 0) {
    // A point never sits on the border: a twentieth of a decade at least.
    const double first = std::floor(std::log10(lo) - 0.05), last = std::ceil(std::log10(hi) + 0.05);
    return {std::pow(10, first), std::pow(10, last), std::pow(10, std::ceil((last - first) / 5)), true};
  }
  if (s.unit == "fraction" && hi <= 1) return {0, 1, 0.2, false};
  if (hi <= 0) hi = 1;  // every value 0 (no bank conflicts): gnuplot refuses an empty range
  // Decimal tick labels ("0.15") are wider than whole ones: four intervals
  // at most, or the x labels of a narrow panel run together (0.05 steps).
  const double whole = nice_step(hi * 1.05 / 5);
  const double step = whole < 1 ? nice_step(hi * 1.05 / 4) : whole;
  return {0, step * std::ceil(hi * 1.05 / step), step, false};
}

// Tick labels of counts in thousands and more: 1.5k, 2M (gnuplot's '%.0s%c'
// printed 1500 as 2k, beside the 2k of 2000).
std::string tick_text(double v) {
  std::ostringstream t;
  if (std::fabs(v) >= 1e9) t << v / 1e9 << 'G';
  else if (std::fabs(v) >= 1e6) t << v / 1e6 << 'M';
  else if (std::fabs(v) >= 1e3) t << v / 1e3 << 'k';
  else t << v;
  return t.str();
}

// The ticks as a list, "(0, 0.2, 0.4)": a start and a step would let
// rounding drop the last one (0.1 times 10 is above 1).
std::string tick_list(const ScatterAxes& ax) {
  std::ostringstream s;
  s << '(';
  const int n = int(std::lround(ax.log ? std::log10(ax.hi / ax.lo) / std::log10(ax.step) : (ax.hi - ax.lo) / ax.step));
  for (int i = 0; i <= n; ++i) {
    const double v = ax.log ? ax.lo * std::pow(ax.step, i) : ax.lo + i * ax.step;
    s << (i ? ", " : "");
    if (ax.hi > 1000) s << '"' << tick_text(v) << "\" ";  // labelled: counts in thousands and more
    s << v;
  }
  s << ')';
  return s.str();
}

// The label font's character width as a fraction of a scatter's square:
// about 6 px a character (sans 8 on the 1200 px canvas, measured on the
// PNGs) over the square's side, which is the panel less its tick labels and
// y label across (about 100 px) and less its title, x label and key down
// (about 150 px).
double label_char_width(const Area& a, double canvas_w, double canvas_h) {
  const double side = std::min(a.w * canvas_w - 100, a.h * canvas_h - 150);
  return 6 / std::max(side, 60.0);
}

// A point's label as drawn: its text, and whether it runs right of the
// point (anchored left) or left of it.
struct PlacedLabel {
  std::string text;
  bool rightwards = true;
};

// Where a label reaches across its panel (fractions of the panel): from the
// point rightwards or leftwards, `chars` characters and the 0.7 of one that
// scatter() offsets it by.
struct LabelExtent {
  double from, to, y;
};
LabelExtent label_extent(double x, double y, size_t chars, bool rightwards, double char_width) {
  const double width = char_width * (double(chars) + 0.7);
  return rightwards ? LabelExtent{x, x + width, y} : LabelExtent{x - width, x, y};
}

// A label placed to stay inside its panel (past the left edge it would run
// over the y tick labels): on the side away from the nearer edge, the
// roomier one, cut to fit where it is longer than that room (its suffix,
// " and N more", kept whole).
PlacedLabel fit_label(const std::string& label, const std::string& suffix, double x, double char_width) {
  const bool rightwards = x < 0.5;
  const double room_chars = (rightwards ? 1 - x : x) / char_width - 0.7;
  if (double(label.size() + suffix.size()) <= room_chars) return {label + suffix, rightwards};
  const double keep = std::floor(room_chars) - double(suffix.size()) - 3;
  return {(keep >= 1 ? label.substr(0, size_t(keep)) : std::string()) + "..." + suffix, rightwards};
}

// The points' labels as drawn: where labels would run into each other (a
// line's height apart, their extents across the panel overlapping), the
// first says "LABEL and N more" and the others nothing; each fitted into
// the panel.
std::vector<PlacedLabel> panel_labels(const ScatterSeries& s, const ScatterAxes& ax, double char_width) {
  auto at = [&](double v) {
    return ax.log ? std::log10(v / ax.lo) / std::log10(ax.hi / ax.lo) : (v - ax.lo) / (ax.hi - ax.lo);
  };
  auto extent = [&](size_t i) {
    const double x = at(s.points[i].reference);
    const PlacedLabel p = fit_label(s.points[i].label, "", x, char_width);
    return label_extent(x, at(s.points[i].simulated), p.text.size(), p.rightwards, char_width);
  };
  std::vector<size_t> more(s.points.size(), 0);
  std::vector<size_t> shown;
  for (size_t i = 0; i < s.points.size(); ++i) {
    if (s.points[i].label.empty()) continue;
    const LabelExtent p = extent(i);
    auto near = std::find_if(shown.begin(), shown.end(), [&](size_t j) {
      const LabelExtent q = extent(j);
      return std::fabs(p.y - q.y) < 0.05 && p.from < q.to && q.from < p.to;
    });
    if (near != shown.end()) ++more[*near];
    else shown.push_back(i);
  }
  std::vector<PlacedLabel> labels(s.points.size());
  for (size_t i : shown)
    labels[i] = fit_label(s.points[i].label, more[i] ? " and " + std::to_string(more[i]) + " more" : "",
                          at(s.points[i].reference), char_width);
  return labels;
}

// Simulated against reference for one metric: equal axes with the metric's
// unit, the y = x line, the error, correlation and count under the title,
// and the kernels' labels (kScatterLabels) beside their points, on the side
// away from the nearer edge.
void scatter(std::ostream& out, const std::string& name, const ScatterSeries& s, const Area& a, double char_width) {
  const ScatterAxes ax = scatter_axes(s);
  const std::vector<PlacedLabel> labels = panel_labels(s, ax, char_width);
  out << '$' << name << " << EOD\n";
  for (size_t i = 0; i < s.points.size(); ++i)
    out << s.points[i].reference << ' ' << s.points[i].simulated << " \"" << labels[i].text << "\" "
        << (labels[i].rightwards ? 'r' : 'l') << '\n';
  out << "EOD\n";
  place_square(out, a);
  // gnuplot drops a tick on the end of a log axis now and then (rounding):
  // the range reaches a little past both.
  const double below = ax.log ? ax.lo * 0.999 : ax.lo, above = ax.log ? ax.hi * 1.001 : ax.hi;
  const std::string unit = s.unit.empty() ? "" : " (" + s.unit + ")";
  out << "set title " << single_quoted(s.metric) << ".\"\\n\"." << single_quoted(s.stats) << '\n'
      << "set xlabel " << single_quoted("reference" + unit) << "\nset ylabel " << single_quoted("simulated" + unit)
      << "\nset key below\nset xtics norotate\nset grid xtics ytics\n"
      << (ax.log ? "set logscale xy\n" : "unset logscale\n")
      << (ax.log && ax.step == 10 ? "set mxtics 10\nset mytics 10\n" : "")
      << "set format xy '%g'\nset xrange [" << below << ':'
      << above << "]\nset yrange [" << below << ':' << above << "]\nset xtics " << tick_list(ax) << "\nset ytics "
      << tick_list(ax) << '\n'
      << "plot $" << name << " using 1:2 with points lt 2 pt 7 ps 1.2 title 'kernels', "
      << "x with lines lt 8 dt 2 title 'y = x', "
      << "$" << name << " using 1:2:(strcol(4) eq 'r' ? strcol(3) : '') with labels left offset char 0.7,0.3 "
      << "font ',8' notitle, "
      << "$" << name << " using 1:2:(strcol(4) eq 'r' ? '' : strcol(3)) with labels right offset char -0.7,0.3 "
      << "font ',8' notitle\n"
      << "unset xlabel\nset format xy '%g'\nset xtics autofreq\nset ytics autofreq\nunset mxtics\nunset mytics\n"
      << "unset grid\n";
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
  s << "set terminal " << terminal << " size " << plot_size(terminal, kCanvasWidth, height)
    << " noenhanced font 'sans,10'\n";
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
  const int height = 400 * rows;
  s << header(terminal, output, height,
              std::string(rep.projected ? "Projected s" : "S") + "tall breakdown: " + plot_label(rep.source, 60));
  histogram(s, "cpi", cpi_stack_table(rep), {0, 1 - h, 1, h * 0.95});
  histogram(s, "cycles", cycle_stack_table(rep), {0, 1 - 2 * h, 1, h * 0.95});
  histogram(s, "busy", unit_busy_table(rep), {0, 1 - 3 * h, 1, h * 0.95});
  if (stalls) histogram(s, "stalls", stall_comparison_table(validation->stalls), {0, 1 - 4 * h, 1, h * 0.95});
  const size_t per_row = std::min(kPerRow, scatters.size());
  for (size_t i = 0; i < scatters.size(); ++i) {
    const double w = 1.0 / per_row;
    const size_t row = i / kPerRow;
    const Area a{(i % kPerRow) * w, (scatter_rows - 1 - row) * h, w, h * 0.95};
    scatter(s, "ref" + std::to_string(i), scatters[i], a, label_char_width(a, kCanvasWidth, height));
  }
  s << "unset multiplot\n";
  return s.str();
}

std::string compare_plot_script(const std::vector<Report>& runs, const std::string& terminal,
                                const std::string& output) {
  std::ostringstream s;
  s << header(terminal, output, 1800, "Comparison of " + std::to_string(runs.size()) + " runs");
  histogram(s, "cpi", compare_cpi_table(runs), {0, 0.66, 1, 0.32});
  histogram(s, "cycles", compare_cycle_table(runs), {0, 0.44, 1, 0.2});
  speedup(s, "speedup", speedup_chart(runs), {0, 0.22, 1, 0.2});
  histogram(s, "kspeedup", compare_speedup_table(runs), {0, 0.03, 1, 0.18});
  s << "unset multiplot\n";
  return s.str();
}

std::string correlation_plot_script(const std::vector<Validation>& runs, const std::string& terminal,
                                    const std::string& output) {
  const Validation suite = pool_validations(runs);
  const std::vector<ScatterSeries> panels = validation_scatter(suite);
  std::vector<StallComparison> stalls;
  for (const Validation& v : runs) stalls.insert(stalls.end(), v.stalls.begin(), v.stalls.end());
  constexpr size_t kPerRow = 3;
  const size_t scatter_rows = std::max<size_t>(1, (panels.size() + kPerRow - 1) / kPerRow);
  const size_t rows = scatter_rows + (stalls.empty() ? 0 : 1);
  const double h = 0.96 / rows;
  std::ostringstream s;
  const int height = int(450 * rows);
  s << header(terminal, output, height,
              "Simulated against reference: " + std::to_string(suite.matched) + " kernels, " + suite.reference);
  if (!stalls.empty()) histogram(s, "stalls", stall_comparison_table(stalls), {0, scatter_rows * h, 1, h * 0.95});
  for (size_t i = 0; i < panels.size(); ++i) {
    const double w = 1.0 / kPerRow;
    const size_t row = i / kPerRow;
    const Area a{(i % kPerRow) * w, (scatter_rows - 1 - row) * h, w, h * 0.95};
    scatter(s, "corr" + std::to_string(i), panels[i], a, label_char_width(a, kCanvasWidth, height));
  }
  s << "unset multiplot\n";
  return s.str();
}

void write_correlation_plot(const std::vector<Validation>& runs, const std::string& path) {
  draw(path, [&](const std::string& terminal, const std::string& tmp) {
    return correlation_plot_script(runs, terminal, tmp);
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
