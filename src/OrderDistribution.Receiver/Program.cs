using OrderDistribution.ServiceDefaults;
using OrderDistribution.Receiver;

var builder = WebApplication.CreateBuilder(args);
builder.AddServiceDefaults();
builder.AddReceiver();

var app = builder.Build();
app.UseServiceDefaults();
app.MapReceiverEndpoints();
app.Run();

public partial class Program;
