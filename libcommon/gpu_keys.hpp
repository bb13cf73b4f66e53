// The GPU model's keys as a table (libcommon-internal, behind
// gpu_options.hpp): each key's name, help, the GpuConfig field it sets, and
// how its value is read and written as text.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "libcommon/gpu_config.hpp"

namespace sasskit::gpu_keys {

template <class T>
using Ref = std::function<T&(GpuConfig&)>;
using Field = std::variant<Ref<unsigned>, Ref<uint64_t>, Ref<double>, Ref<bool>, Ref<std::string>,
                           Ref<SchedulerPolicy>, Ref<WritePolicy>, Ref<std::vector<unsigned>>>;

struct Key {
  std::string name;
  std::string help;
  Field field;
  bool size = false;  // a byte count, with a suffix or not (byte_size.hpp)
};

// Every key, in the order sasskit-config(5) and --dump-config list them.
const std::vector<Key>& keys();
// The key named `name`; null when none is.
const Key* lookup_key(std::string_view name);
// The same, a usage error when none is.
const Key& find_key(std::string_view name);
// Sets `key` of `gpu` from its text form; a bad value is a usage error
// naming the key.
void set_value(GpuConfig& gpu, const Key& key, std::string_view text);
// `key`'s value in `gpu` as --dump-config writes it.
std::string value_text(const Key& key, GpuConfig& gpu);
// What --help shows for the key's value: SIZE, UINT, gto|lrr|two-level, ...
std::string type_name(const Key& key);
bool is_list(const Key& key);

}  // namespace sasskit::gpu_keys
