// stallreport-mkstream [nostats] [plan] [sample] [b] [name=NAME]: writes the
// test fixture stream (fixture.hpp) to stdout for the CLI cases; NAME
// replaces kernel 1's name in its stats record.
#include <iostream>
#include <string>

#include "fixture.hpp"

int main(int argc, char** argv) {
  sasskit::testing::FixtureOptions o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "nostats") o.stats = false;
    else if (a == "plan") o.plan = true;
    else if (a == "sample") o.sample = true;
    else if (a == "b") o.variant_b = true;
    else if (a.starts_with("name=")) o.vecadd_name = a.substr(5);
    else {
      std::cerr << "stallreport-mkstream: unknown argument " << a << '\n';
      return 2;
    }
  }
  sasskit::testing::write_fixture(std::cout, o);
  return 0;
}
