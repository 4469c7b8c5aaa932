echo hello
ls -l /tmp
export A=1
