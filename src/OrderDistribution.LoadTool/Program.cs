using OrderDistribution.LoadTool;
using Spectre.Console;

return await LoadToolCommands.Build(AnsiConsole.Console).Parse(args).InvokeAsync();
