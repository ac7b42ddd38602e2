import sharp from 'sharp'; sharp.concurrency(1); import { readdirSync, readFileSync } from 'node:fs';
const d='/work/shared/receipts'; const files = readdirSync(d).filter(f=>f.endsWith('.jpg')).slice(0, 20);
const cpu=()=>{const u=process.cpuUsage();return (u.user+u.system)/1e3;};
const T={}; const add=(k,v)=>{(T[k]??=[]).push(v)};
for (const round of [0,1]) for (const f of files) {
  const bytes = readFileSync(`${d}/${f}`);
  let c=cpu(); const { data: raw, info } = await sharp(bytes).rotate().flatten({background:'#fff'}).raw().toBuffer({resolveWithObject:true}); add('jpeg-decode', cpu()-c);
  const ch = info.channels, w=info.width, h=info.height;
  c=cpu(); const png = await sharp(raw,{raw:{width:w,height:h,channels:ch}}).png({compressionLevel:1}).toBuffer(); add('png-encode-colour', cpu()-c);
  c=cpu(); await sharp(bytes).rotate().flatten({background:'#fff'}).png({compressionLevel:1}).toBuffer(); add('jpeg->png (child)', cpu()-c);
  c=cpu(); await sharp(png).raw().toBuffer(); add('png-decode', cpu()-c);
  c=cpu(); const g = await sharp(raw,{raw:{width:w,height:h,channels:ch}}).grayscale().toColourspace('b-w').raw().toBuffer(); add('sharp-gray', cpu()-c);
  c=cpu(); const g2=new Uint8Array(w*h); if (ch===3) for (let i=0,j=0;i<g2.length;i++,j+=3) g2[i]=(raw[j]*77+raw[j+1]*150+raw[j+2]*29+128)>>8; add('js-gray', cpu()-c);
  c=cpu(); await sharp(g,{raw:{width:w,height:h,channels:1}}).toColourspace('b-w').png({compressionLevel:1}).toBuffer(); add('gray-png-encode', cpu()-c);
  c=cpu(); await sharp(raw,{raw:{width:w,height:h,channels:ch}}).resize({width:512,height:512,fit:'inside'}).blur(1.5).raw().toBuffer(); add('resize512+blur', cpu()-c);
  c=cpu(); await sharp(raw,{raw:{width:w,height:h,channels:ch}}).resize({width:600,height:600,fit:'inside'}).raw().toBuffer(); add('resize600', cpu()-c);
  if (round===0) for (const k of Object.keys(T)) T[k]=[];
}
const med=a=>[...a].sort((x,y)=>x-y)[a.length>>1];
for (const [k,v] of Object.entries(T)) console.log(k.padEnd(20), 'median ms', med(v).toFixed(1), 'mean', (v.reduce((a,b)=>a+b,0)/v.length).toFixed(1));
