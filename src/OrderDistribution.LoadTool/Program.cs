using OrderDistribution.LoadTool.Commands;
using OrderDistribution.LoadTool.Reporting;

return await LoadToolCommands.InvokeAsync(ToolConsole.ForStandardOutput(), Console.Error, args);
