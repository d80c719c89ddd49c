# azd runs each hook's Windows form through this: it runs the same POSIX script as the posix form, with the sh
# that Git for Windows installs, so both systems run one script. Usage: pwsh scripts/hook.ps1 scripts/NAME.sh [args]
param(
    [Parameter(Mandatory = $true)][string]$Script,
    [Parameter(ValueFromRemainingArguments = $true)][string[]]$Arguments = @()
)
$ErrorActionPreference = 'Stop'
$sh = (Get-Command sh -CommandType Application -ErrorAction SilentlyContinue | Select-Object -First 1).Source
if (-not $sh) {
    # Git for Windows puts git.exe in <Git>\cmd and sh.exe in <Git>\bin, and only the first on PATH by default.
    $git = (Get-Command git -CommandType Application -ErrorAction SilentlyContinue | Select-Object -First 1).Source
    $candidates = @()
    if ($git) { $candidates += Join-Path (Split-Path (Split-Path $git)) 'bin/sh.exe' }
    if ($env:ProgramFiles) { $candidates += Join-Path $env:ProgramFiles 'Git/bin/sh.exe' }
    $sh = $candidates | Where-Object { Test-Path $_ } | Select-Object -First 1
}
if (-not $sh) {
    Write-Output "hook: no sh to run $Script with: install Git for Windows (it brings sh), or run azd from WSL"
    exit 1
}
& $sh $Script @Arguments
exit $LASTEXITCODE
