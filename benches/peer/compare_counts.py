import json, subprocess, sys, time
cases=[json.loads(l) for l in open('/tmp/play_cases.jsonl')]
peer=[json.loads(l) for l in open('/tmp/peer_results.jsonl')]
by={(p['family'],p['index']):p for p in peer}
idx={}
more=less=same=0; times=[]
for c in cases:
    i=idx.get(c['family'],0); idx[c['family']]=i+1
    args=['target/release/rummikub-companion','play','--table',' | '.join(c['table']),'--rack',' '.join(c['rack']),'--json']
    if c['xp']: args.append('--xp')
    t=time.time(); r=subprocess.run(args,capture_output=True,text=True); times.append(time.time()-t)
    if r.returncode not in (0,1): print('ERR',c['family'],i,r.stderr[:200]); continue
    n=json.loads(r.stdout)['count']
    p=by[(c['family'],i)]['tiles_placed']
    if n>p: more+=1; print('more',c['family'],i,n,p,by[(c['family'],i)].get('nonrep_table_sets'))
    elif n<p: less+=1; print('LESS',c['family'],i,n,p)
    else: same+=1
print('same',same,'more',more,'less',less,'max process s',max(times))
