# sasskit's cycles against Accel-Sim's, log-log, y = x, one colour per GPU
# model. corpus.sh passes points (lines "gpu accelsim_cycles sasskit_cycles")
# and output (an .svg).
set terminal svg size 640,560 dynamic font "sans,11"
set output output
set logscale xy
set xrange [300:100000]
set yrange [300:100000]
set samples 200
set xlabel "Accel-Sim cycles"
set ylabel "sasskit cycles"
set key top left
set grid
gpus = system("awk '{ print $1 }' '" . points . "' | sort -u | tr '\\n' ' '")
plot for [g in gpus] points using 2:(strcol(1) eq g ? $3 : 1/0) with points pt 7 ps 0.8 title g, \
     x with lines lc rgb "gray" dt 2 title "y = x"
