# Per-layer view of one plan: GPU and PIM busy time (bars, left axis, us)
# and the share of the layer given to the GPU (line, right axis, %).
# Variables (gnuplot -e): dat (from plan2dat.awk: index label gpu_us pim_us
# share), out, term (a terminal line), ttl.
set terminal @term
set output out
set title ttl noenhanced offset 0, 1.5
set datafile separator "\t"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set xlabel "layer (id:op)"
set ylabel "busy time of the chosen plan (us)"
set y2label "GPU share of the layer (%)"
set yrange [0:*]
set y2range [0:105]
set y2tics 0, 20, 100
set ytics nomirror
set xtics rotate by 90 right nomirror font ",8" noenhanced
set grid ytics lc rgb "#dddddd"
# The legend sits between the title and the plot, clear of the rotated
# layer labels whatever their length.
set key at graph 0.5, graph 1.02 center bottom horizontal noenhanced
set tmargin 5
set offsets 0.5, 0.5, graph 0.05, 0
plot dat using 3:xtic(2) title "GPU time" lc rgb "#4477aa", \
     ""  using 4 title "PIM time" lc rgb "#ee6677", \
     ""  using 0:5 axes x1y2 with linespoints lw 2 pt 7 ps 0.5 lc rgb "#228833" \
         title "GPU share (%)"
