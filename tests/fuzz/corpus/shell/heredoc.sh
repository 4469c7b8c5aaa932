cat <<EOF
$X
EOF
for i in 1 2; do echo $i; done
if true; then :; fi
