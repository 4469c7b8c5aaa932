echo $'a\tb' "a\"b" 'it'\''s' > out 2>&1 | tee x &
