# fish completion for pdwiz: commands, every option of each
# (tests/pkg/run.sh holds the lists to pdwiz COMMAND --help), their values,
# rule ids (pdwiz rules) and SGLang flags after `--` (rules/options.yaml).

set -l pdwiz_commands check import emit explain rules coverage compile-catalog help
set -l pdwiz_gpus A10 A30 A40 A6000 A100 H100 H800 H200 H20 B200 GB200 B300 GB300 L40 L40S L4 RTX4090 RTX5090 MI250X MI300X MI308X MI325X MI355X 910B 910C

function __pdwiz_sglang_flags
    for f in (set -q PDWIZ_DATADIR; and echo $PDWIZ_DATADIR; or echo .)/rules/options.yaml \
            /usr/local/share/pdwiz/rules/options.yaml /usr/share/pdwiz/rules/options.yaml
        if test -r $f
            sed -n 's/^ *flag: *\(--[a-z0-9-]*\).*/\1/p' $f
            return
        end
    end
end

function __pdwiz_after_dashdash
    contains -- -- (commandline -opc)
end

function __pdwiz_rule_ids
    set -l cmd (commandline -opc)[1]
    $cmd rules 2>/dev/null | awk '{print $1}'
end

# pdwiz itself
complete -c pdwiz -n "not __fish_seen_subcommand_from $pdwiz_commands" -f -a check -d 'lint launch commands, a script or YAML'
complete -c pdwiz -n "not __fish_seen_subcommand_from $pdwiz_commands" -f -a import -d 'launch script -> deployment file'
complete -c pdwiz -n "not __fish_seen_subcommand_from $pdwiz_commands" -f -a emit -d 'write launch material for a deployment'
complete -c pdwiz -n "not __fish_seen_subcommand_from $pdwiz_commands" -f -a explain -d 'what a rule means and how to fix it'
complete -c pdwiz -n "not __fish_seen_subcommand_from $pdwiz_commands" -f -a rules -d 'list the rules'
complete -c pdwiz -n "not __fish_seen_subcommand_from $pdwiz_commands" -f -a coverage -d 'map options and SGLang checks to rules'
complete -c pdwiz -n "not __fish_seen_subcommand_from $pdwiz_commands" -f -a compile-catalog -d 'write the compiled catalog'
complete -c pdwiz -n "not __fish_seen_subcommand_from $pdwiz_commands" -f -a help -d 'the options of a command'
complete -c pdwiz -n "not __fish_seen_subcommand_from $pdwiz_commands" -l pages -d 'open a new deployment on the full pages'
complete -c pdwiz -n "not __fish_seen_subcommand_from $pdwiz_commands" -l import -r -F -d 'open the wizard on a deployment imported from SCRIPT'
complete -c pdwiz -n "not __fish_seen_subcommand_from $pdwiz_commands" -s V -l version -d 'the version and the SGLang commits of the rules'
complete -c pdwiz -s h -l help -d 'show the options'

# check
complete -c pdwiz -n "__fish_seen_subcommand_from check; and not __pdwiz_after_dashdash" -l format -x -a 'text json sarif github' -d 'output format'
complete -c pdwiz -n "__fish_seen_subcommand_from check; and not __pdwiz_after_dashdash" -l input -x -a 'auto shell config markdown k8s' -d 'how to read FILE'
complete -c pdwiz -n "__fish_seen_subcommand_from check; and not __pdwiz_after_dashdash" -l model-arch -x -d 'model architecture'
complete -c pdwiz -n "__fish_seen_subcommand_from check; and not __pdwiz_after_dashdash" -l platform -x -a 'cuda hip npu musa xpu' -d 'platform'
complete -c pdwiz -n "__fish_seen_subcommand_from check; and not __pdwiz_after_dashdash" -l gpu-sm -x -d 'GPU generation (SM)'
complete -c pdwiz -n "__fish_seen_subcommand_from check; and not __pdwiz_after_dashdash" -l gpu -x -a "$pdwiz_gpus" -d 'accelerator'
complete -c pdwiz -n "__fish_seen_subcommand_from check; and not __pdwiz_after_dashdash" -l gpu-mem -x -d 'accelerator memory, GiB'
complete -c pdwiz -n "__fish_seen_subcommand_from check; and not __pdwiz_after_dashdash" -l fact -x -d 'any other fact (NAME=VALUE)'
complete -c pdwiz -n "__fish_seen_subcommand_from check; and not __pdwiz_after_dashdash" -l sglang-version -x -d 'the SGLang release the commands run'
complete -c pdwiz -n "__fish_seen_subcommand_from check; and not __pdwiz_after_dashdash" -l fail-on -x -a 'error warning' -d 'the least severity that fails the run'
complete -c pdwiz -n "__fish_seen_subcommand_from check; and not __pdwiz_after_dashdash" -l ignore -x -a "(__pdwiz_rule_ids)" -d 'leave these rules out'
complete -c pdwiz -n "__fish_seen_subcommand_from check; and not __pdwiz_after_dashdash" -l exclude -x -d 'skip the files a glob matches'
complete -c pdwiz -n "__fish_seen_subcommand_from check; and not __pdwiz_after_dashdash" -l show-unknown -d 'list each could-not-check'
complete -c pdwiz -n "__fish_seen_subcommand_from check; and not __pdwiz_after_dashdash" -s q -l quiet -d 'show only what fails the run'
complete -c pdwiz -n "__fish_seen_subcommand_from check; and not __pdwiz_after_dashdash" -l color -x -a 'auto always never' -d 'colour the text report'
complete -c pdwiz -n "__fish_seen_subcommand_from check; and not __pdwiz_after_dashdash" -l stdin-filename -r -F -d 'the name standard input is reported under'
complete -c pdwiz -n "__fish_seen_subcommand_from check; and not __pdwiz_after_dashdash" -l rcfile -r -F -d "the configuration to use instead of each input's .pdwiz.yaml"
complete -c pdwiz -n "__fish_seen_subcommand_from check; and not __pdwiz_after_dashdash" -s v -l verbose -d "also show SGLang's overrides"
complete -c pdwiz -n "__fish_seen_subcommand_from check; and __pdwiz_after_dashdash" -f -a '(__pdwiz_sglang_flags)' -d 'SGLang flag'

# import
complete -c pdwiz -n "__fish_seen_subcommand_from import" -s o -l output -r -F -d 'write the deployment file to FILE'
complete -c pdwiz -n "__fish_seen_subcommand_from import" -l keep-going -d 'write the deployment even when words could not be placed'

# emit
complete -c pdwiz -n "__fish_seen_subcommand_from emit" -l format -x -a 'shell runbook config k8s yaml' -d 'what to write'
complete -c pdwiz -n "__fish_seen_subcommand_from emit" -l force -d 'emit despite errors'
complete -c pdwiz -n "__fish_seen_subcommand_from emit" -s o -l output-dir -x -a '(__fish_complete_directories)' -d 'write the files into DIR'
complete -c pdwiz -n "__fish_seen_subcommand_from emit" -l pin -d 'with --format yaml: write every derived value out'

# explain
complete -c pdwiz -n "__fish_seen_subcommand_from explain" -f -a '(__pdwiz_rule_ids)' -d 'rule id'
complete -c pdwiz -n "__fish_seen_subcommand_from explain" -l log -r -F -d "a failed launch's log (- for standard input)"
complete -c pdwiz -n "__fish_seen_subcommand_from explain" -l format -x -a 'text json' -d 'output format'
complete -c pdwiz -n "__fish_seen_subcommand_from explain" -l model-arch -x -d 'model architecture'
complete -c pdwiz -n "__fish_seen_subcommand_from explain" -l platform -x -a 'cuda hip npu musa xpu' -d 'platform'
complete -c pdwiz -n "__fish_seen_subcommand_from explain" -l gpu-sm -x -d 'GPU generation (SM)'
complete -c pdwiz -n "__fish_seen_subcommand_from explain" -l gpu -x -a "$pdwiz_gpus" -d 'accelerator'
complete -c pdwiz -n "__fish_seen_subcommand_from explain" -l gpu-mem -x -d 'accelerator memory, GiB'
complete -c pdwiz -n "__fish_seen_subcommand_from explain" -l fact -x -d 'any other fact (NAME=VALUE)'

# rules
complete -c pdwiz -n "__fish_seen_subcommand_from rules" -f
complete -c pdwiz -n "__fish_seen_subcommand_from rules" -l format -x -a 'text json' -d 'output format'

# coverage
complete -c pdwiz -n "__fish_seen_subcommand_from coverage" -f
complete -c pdwiz -n "__fish_seen_subcommand_from coverage" -l sglang-catalog -r -F -d "also map the check ids of SGLang's catalog"

# compile-catalog
complete -c pdwiz -n "__fish_seen_subcommand_from compile-catalog" -f
complete -c pdwiz -n "__fish_seen_subcommand_from compile-catalog" -s o -l output -r -F -d 'where to write it'

# help COMMAND
complete -c pdwiz -n "__fish_seen_subcommand_from help" -f -a "check import emit explain rules coverage compile-catalog"
