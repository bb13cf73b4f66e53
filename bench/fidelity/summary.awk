# Summary of corpus.sh's table (tab-separated, header first): per GPU model and
# overall over the compared cases, the median and p90 of |gap|, the count within
# 15%, the largest |gap| and Pearson r of log cycles.
BEGIN { FS = "\t" }
NR == 1 { next }
$12 != "yes" { next }
{
  add($2, $3, $4, $5)
  add("all", $3, $4, $5)
}
function add(key, a, s, gap) {
  k = ++count[key]
  absgap[key, k] = gap < 0 ? -gap : gap
  la[key, k] = log(a)
  ls[key, k] = log(s)
  if (!(key in seen)) { seen[key] = 1; order[++nkeys] = key }
}
# The q-quantile of key's |gap| (nearest rank on the sorted values).
function quantile(key, q,    n, i, j, t, v) {
  n = count[key]
  for (i = 1; i <= n; ++i) v[i] = absgap[key, i]
  for (i = 2; i <= n; ++i) for (j = i; j > 1 && v[j - 1] > v[j]; --j) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
  if (q == 0.5 && n % 2 == 0) return (v[n / 2] + v[n / 2 + 1]) / 2
  i = int(q * n + 0.999999); if (i < 1) i = 1
  return v[i]
}
function pearson(key,    n, i, ma, ms, saa, sss, sas) {
  n = count[key]
  for (i = 1; i <= n; ++i) { ma += la[key, i]; ms += ls[key, i] }
  ma /= n; ms /= n
  for (i = 1; i <= n; ++i) {
    saa += (la[key, i] - ma) ^ 2; sss += (ls[key, i] - ms) ^ 2; sas += (la[key, i] - ma) * (ls[key, i] - ms)
  }
  return saa > 0 && sss > 0 ? sas / sqrt(saa * sss) : 0
}
END {
  printf "%-8s %5s %11s %8s %10s %9s %8s\n", "gpu", "cases", "median|gap|", "p90|gap|", "within15%", "max|gap|", "r(log)"
  for (o = 1; o <= nkeys + 1; ++o) {
    key = o <= nkeys ? order[o] : "all"
    if (key == "all" && o <= nkeys) continue
    n = count[key]; within = 0; worst = 0
    for (i = 1; i <= n; ++i) { if (absgap[key, i] <= 15) ++within; if (absgap[key, i] > worst) worst = absgap[key, i] }
    printf "%-8s %5d %10.1f%% %7.1f%% %6d/%-3d %8.1f%% %8.3f\n", key, n, quantile(key, 0.5), quantile(key, 0.9), within, n, worst, pearson(key)
  }
}
