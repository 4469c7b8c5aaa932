

   
# only a comment
