using OrderDistribution.LoadTool.Commands;
using Spectre.Console;

return await LoadToolCommands.InvokeAsync(AnsiConsole.Console, Console.Error, args);
