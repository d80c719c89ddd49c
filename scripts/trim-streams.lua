-- Trims every stream up to the oldest entry one of its consumer groups still needs, and no further:
-- the oldest entry delivered but not acknowledged (pending) and the first entry after the group's
-- last-delivered-id (not read yet), whichever is older, over all the stream's groups. A stream with
-- no group is left alone (a group created later reads it from the start). Returns, per stream
-- trimmed, its name and how many entries went.
-- Run by scripts/run-local.sh:  redis-cli -p 6379 --eval scripts/trim-streams.lua
-- Replaces pubsub.redis's maxLenApprox, which trims the oldest entries whether a group has read them
-- or not (docs/dapr-sidecar.md, "Measured on the current code"). Needs Redis 6.2 (XTRIM MINID).

local function parse(id)
  local ms, seq = string.match(id, '^(%d+)-(%d+)$')
  return tonumber(ms), tonumber(seq)
end

local function older(a, b)
  local ams, aseq = parse(a)
  local bms, bseq = parse(b)
  return ams < bms or (ams == bms and aseq < bseq)
end

local function after(id)
  local ms, seq = parse(id)
  return string.format('%d-%d', ms, seq + 1)
end

local trimmed = {}
local cursor = '0'
repeat
  local page = redis.call('SCAN', cursor, 'TYPE', 'stream', 'COUNT', 1000)
  cursor = page[1]
  for _, stream in ipairs(page[2]) do
    local keep = nil
    local groups = redis.call('XINFO', 'GROUPS', stream)
    for _, group in ipairs(groups) do
      local fields = {}
      for i = 1, #group, 2 do fields[group[i]] = group[i + 1] end
      local needed = after(fields['last-delivered-id'])
      if fields['pending'] > 0 then
        local oldestPending = redis.call('XPENDING', stream, fields['name'])[2]
        if older(oldestPending, needed) then needed = oldestPending end
      end
      if keep == nil or older(needed, keep) then keep = needed end
    end
    if keep ~= nil then
      local count = redis.call('XTRIM', stream, 'MINID', keep)
      if count > 0 then
        table.insert(trimmed, stream)
        table.insert(trimmed, count)
      end
    end
  end
until cursor == '0'
return trimmed
