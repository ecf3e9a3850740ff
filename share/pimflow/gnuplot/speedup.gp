# Speedup of every policy over the GPU-only plan (none = 1), as bars with
# the value printed on each, and whiskers from the error band's p05 to
# its p95 (pf-solve -U: the nominal plan timed under each sample).
# Variables (gnuplot -e): dat (policy speedup time_us p05 p95, tab
# separated), out, term, ttl.
set terminal @term
set output out
set title ttl noenhanced
set datafile separator "\t"
set style fill solid 0.85 border -1
set boxwidth 0.6
set xlabel "policy"
set ylabel "speedup over GPU only (x)"
set yrange [0:*]
set offsets 0.5, 0.5, graph 0.12, 0
set grid ytics lc rgb "#dddddd"
set xtics noenhanced nomirror
set key off
set bars 2
plot dat using 0:2:xtic(1) with boxes lc rgb "#4477aa", \
     ""  using 0:2:4:5 with yerrorbars lc rgb "#222222" lw 1.5 ps 0, \
     ""  using 0:5:(sprintf("%.3f", $2)) with labels offset 0,0.8 font ",10", \
     1 with lines dt 2 lc rgb "#555555"
