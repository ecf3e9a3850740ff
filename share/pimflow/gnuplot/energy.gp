# Time and energy of every policy relative to the GPU-only plan (none = 1),
# as two bars per policy with the value printed on each.  Variables
# (gnuplot -e): dat (policy, time ratio, energy ratio, tab separated), out,
# term, ttl.
set terminal @term
set output out
set title ttl noenhanced
set datafile separator "\t"
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set xlabel "policy"
set ylabel "relative to GPU only (none = 1)"
set yrange [0:*]
set offsets 0, 0, graph 0.15, 0
set grid ytics lc rgb "#dddddd"
set xtics noenhanced nomirror
set key above horizontal
plot dat using 2:xtic(1) title "time" lc rgb "#4477aa", \
     ""  using 3 title "energy" lc rgb "#cc6677", \
     ""  using ($0 - 0.17):2:(sprintf("%.2f", $2)) with labels offset 0,0.8 font ",8" notitle, \
     ""  using ($0 + 0.17):3:(sprintf("%.2f", $3)) with labels offset 0,0.8 font ",8" notitle, \
     1 with lines dt 2 lc rgb "#555555" notitle
